// One suggestion as compact JSON. Server and browser bundle both render through this function,
// which is what makes their outputs byte-identical.

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
