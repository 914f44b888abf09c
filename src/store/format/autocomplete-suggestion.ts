// One suggestion as compact JSON, and each object's suggestion as a list. Server and browser
// bundle both render through renderSuggestion, which is what makes their outputs byte-identical:
// the browser renders a page's suggestions as it shows them, the build renders every object's
// once into data/autocomplete.bin, and the server answers with those bytes as they are stored.
// Bundled for the browser, so no node: imports.

/** A number as JSON.stringify writes it (non-finite numbers and null as `null`). */
const num = (x: number | null): string => (x !== null && Number.isFinite(x) ? String(x) : 'null');

/** `{"id":…,"ctype":…,"presentation":…,"level_id":…,"room_id":…}`, presentation ending in "\n". */
export function renderSuggestion(
  id: number,
  ctype: string,
  presentation: string,
  level_id: number | null,
  room_id: number | null,
): string {
  // The bytes of JSON.stringify({ id, ctype, presentation: presentation + '\n', level_id, room_id })
  // (spec key order; non-ASCII text raw, as the reference writes it), written as a template: half
  // the cost of building and serializing an object, and a page renders twenty of them.
  return `{"id":${num(id)},"ctype":${JSON.stringify(ctype)},"presentation":${JSON.stringify(presentation + '\n')},"level_id":${num(level_id)},"room_id":${num(room_id)}}`;
}

/** Each object's suggestion, by document number. */
export interface SuggestionList {
  /** the suggestion as JSON text */
  json(doc: number): string;
  /** its UTF-8 bytes: a view of the stored bytes where they are stored (do not write to it) */
  bytes(doc: number): Uint8Array;
  /** makes sure the suggestions of `docs` are at hand, all at once (stored ones read in parts: fetched in one round) */
  need?(docs: ArrayLike<number>): void;
}

/** Suggestions rendered when asked for, from the objects' fields (the browser's index.json). */
export function renderedSuggestions(fields: {
  ctype: (doc: number) => string;
  id: Float64Array;
  presentation: { at(doc: number): string };
  level_id: Float64Array;
  room_id: Float64Array;
}): SuggestionList {
  const { ctype, id, presentation, level_id, room_id } = fields;
  const json = (d: number) => renderSuggestion(id[d], ctype(d), presentation.at(d), level_id[d], room_id[d]);
  const encoder = new TextEncoder();
  return { json, bytes: (d) => encoder.encode(json(d)) };
}

/**
 * Suggestions stored rendered, back to back as UTF-8 (object d's are bytes[starts[d] .. starts[d+1])),
 * or `bytes(start, end)` where they are read a range at a time (a file read in parts).
 */
export function storedSuggestions(bytes: Uint8Array | ((start: number, end: number) => Uint8Array), starts: Uint32Array): SuggestionList {
  const decoder = new TextDecoder();
  const at = typeof bytes === 'function' ? (d: number) => bytes(starts[d], starts[d + 1]) : (d: number) => bytes.subarray(starts[d], starts[d + 1]);
  return { json: (d) => decoder.decode(at(d)), bytes: at };
}
