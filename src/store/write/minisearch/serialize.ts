// minisearch.json written straight from the index's maps: the very bytes of JSON.stringify(miniSearch),
// without MiniSearch.toJSON()'s intermediate copy of the whole index as plain objects (at 200,000
// directory objects that copy is a few hundred MB and most of the serialization time), and without
// the whole JSON as one string (Utf8Chunks).
// Only where it writes what toJSON() does (checked once on a small index, so a MiniSearch that
// serializes differently is noticed): anything else takes JSON.stringify.
import MiniSearch from 'minisearch';

/** The fields of MiniSearch 7 that toJSON() serializes (private in its typings). */
interface Internals {
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, unknown>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, Record<string, unknown>>;
  _dirtCount: number;
  _index: Iterable<[string, Map<number, Map<number, number>>]>;
}

const TAIL = '"index":[],"serializationVersion":2}';

function internals(miniSearch: MiniSearch<never>): Internals | null {
  const m = miniSearch as unknown as Partial<Internals>;
  const maps = [m._documentIds, m._fieldLength, m._storedFields];
  if (!maps.every((x) => x instanceof Map) || typeof m._documentCount !== 'number' || typeof m._nextId !== 'number') return null;
  if (typeof m._dirtCount !== 'number' || !Array.isArray(m._avgFieldLength) || typeof m._fieldIds !== 'object') return null;
  if (m._index === undefined || typeof m._index[Symbol.iterator] !== 'function') return null;
  return m as Internals;
}

let agrees: boolean | undefined;

/** Whether this writer and JSON.stringify agree on a small index of this MiniSearch. */
function agreesWithToJson(): boolean {
  if (agrees === undefined) {
    const probe = new MiniSearch<{ id: number; a: string; b: string }>({ fields: ['a', 'b'], storeFields: ['a'] });
    probe.addAll([
      { id: 7, a: 'x y', b: 'y "z"' },
      { id: 3, a: 'y', b: 'x x' },
    ]);
    probe.discard(7);
    probe.add({ id: 9, a: 'z', b: 'ü' });
    const written = write(probe);
    agrees = written !== null && written.equals(Buffer.from(JSON.stringify(probe)));
  }
  return agrees;
}

/** `JSON.stringify(miniSearch)` as UTF-8, byte for byte. */
export function miniSearchJson<T>(miniSearch: MiniSearch<T>): Buffer {
  return (agreesWithToJson() ? write(miniSearch) : null) ?? Buffer.from(JSON.stringify(miniSearch));
}

/**
 * The JSON written piece by piece as UTF-8 into one buffer. At 200,000 directory objects it is
 * ~48 million characters, two-byte ones among them: one string of it was ~97 MB of heap, made
 * from parts as large (the stored fields alone ~34 million characters) and flattened once more
 * to be written. Here each few KB of it is written into place as it comes, and the strings it is
 * made of die young. The buffer is a generous guess (`guess` bytes, zeroed as the kernel maps
 * them: pages never written cost no memory), grown should the JSON pass it: chunks joined at the
 * end would be held twice, the chunks then garbage that only a full collection frees.
 */
class Utf8Chunks {
  private bytes: Buffer;
  private end = 0;
  private pending = '';

  constructor(guess: number) {
    this.bytes = Buffer.alloc(guess);
  }

  add(text: string): void {
    this.pending += text;
    // a rope of millions of pieces is slow to flatten; a short one is not, and the flat string
    // it is written through stays small enough for the young generation (a large one is
    // allocated and freed as a large object, each time)
    if (this.pending.length > 8192) this.flush();
  }

  private flush(): void {
    // (a UTF-16 unit is at most 3 bytes of UTF-8)
    const most = this.pending.length * 3;
    if (this.end + most > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(this.end + most, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, this.end);
      this.bytes = grown;
    }
    this.end += this.bytes.write(this.pending, this.end);
    this.pending = '';
  }

  finish(): Buffer {
    this.flush();
    return this.bytes.subarray(0, this.end);
  }
}

/** The buffer's first guess: bytes per document (~240 at 200,000 directory objects), and a base. */
const GUESS_PER_DOCUMENT = 512;
const GUESS_BASE = 1 << 20;

/** The JSON, or null where this writer cannot tell that it writes what JSON.stringify would. */
function write<T>(miniSearch: MiniSearch<T>): Buffer | null {
  const m = internals(miniSearch as unknown as MiniSearch<never>);
  if (m === null) return null;
  // everything but the maps as toJSON() gives it, keys in its order: the maps are written below
  // where it has `{}`, the index where it has `[]`
  const head = JSON.stringify({
    documentCount: m._documentCount,
    nextId: m._nextId,
    documentIds: {},
    fieldIds: m._fieldIds,
    fieldLength: {},
    averageFieldLength: m._avgFieldLength,
    storedFields: {},
    dirtCount: m._dirtCount,
    index: [],
    serializationVersion: 2,
  });
  const parts = head.split(/(?<="(?:documentIds|fieldLength|storedFields)":\{|"index":\[)/);
  if (parts.length !== 5 || !head.endsWith(TAIL)) return null;
  const out = new Utf8Chunks(GUESS_BASE + m._documentCount * GUESS_PER_DOCUMENT);
  try {
    out.add(parts[0]);
    objectOf(out, m._documentIds, (id) => JSON.stringify(id));
    out.add(parts[1]);
    objectOf(out, m._fieldLength, (lengths) => JSON.stringify(lengths));
    out.add(parts[2]);
    objectOf(out, m._storedFields, (fields) => JSON.stringify(fields));
    out.add(parts[3]);
    indexJson(out, m);
    out.add(parts[4]);
  } catch (e) {
    if (e instanceof NotAnIndex) return null;
    throw e;
  }
  return out.finish();
}

class NotAnIndex extends Error {}

/** The members of the index array. */
function indexJson(out: Utf8Chunks, m: Internals): void {
  let first = true;
  for (const [term, fields] of m._index) {
    out.add(`${first ? '' : ','}[${JSON.stringify(term)},{`);
    objectOf(out, fields, (freqs) => {
      const inner = new Utf8Text();
      objectOf(inner, freqs, String);
      return `{${inner.text}}`;
    });
    out.add('}]');
    first = false;
  }
}

/** Utf8Chunks' add() into one short string (a term's frequencies). */
class Utf8Text {
  text = '';

  add(text: string): void {
    this.text += text;
  }
}

/**
 * The members of Object.fromEntries(map) as JSON.stringify writes them: with integer keys (field
 * ids, short document ids) an object lists them in ascending order, whatever the map's order.
 * A value JSON.stringify would leave out (undefined) is refused.
 */
function objectOf<V>(out: { add(text: string): void }, map: Map<number, V>, value: (v: V) => string | undefined): void {
  let previous = -1;
  for (const [key] of map) {
    // only array-index keys are ordered this way (MiniSearch's ids are; anything else is refused)
    if (!Number.isInteger(key) || key < 0 || key >= 2 ** 32 - 1) throw new NotAnIndex();
    // in insertion order, which is ascending unless documents were discarded and added again
    if (key < previous) return sortedObjectOf(out, map, value);
    previous = key;
  }
  let first = true;
  for (const [key, v] of map) {
    out.add(`${first ? '' : ','}"${key}":${written(value(v))}`);
    first = false;
  }
}

function sortedObjectOf<V>(out: { add(text: string): void }, map: Map<number, V>, value: (v: V) => string | undefined): void {
  let first = true;
  for (const key of [...map.keys()].sort((a, b) => a - b)) {
    out.add(`${first ? '' : ','}"${key}":${written(value(map.get(key)!))}`);
    first = false;
  }
}

function written(json: string | undefined): string {
  if (json === undefined) throw new NotAnIndex();
  return json;
}
