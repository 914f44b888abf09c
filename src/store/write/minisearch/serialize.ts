// minisearch.json written straight from the index's maps: the very string JSON.stringify(miniSearch)
// gives, without MiniSearch.toJSON()'s intermediate copy of the whole index as plain objects (at
// 200,000 directory objects that copy is a few hundred MB and most of the serialization time).
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
    agrees = write(probe) === JSON.stringify(probe);
  }
  return agrees;
}

/** `JSON.stringify(miniSearch)`, byte for byte. */
export function miniSearchJson<T>(miniSearch: MiniSearch<T>): string {
  return agreesWithToJson() ? write(miniSearch) : JSON.stringify(miniSearch);
}

function write<T>(miniSearch: MiniSearch<T>): string {
  const m = internals(miniSearch as unknown as MiniSearch<never>);
  if (m === null) return JSON.stringify(miniSearch);
  // everything but the index as toJSON() gives it, keys in its order
  const head = JSON.stringify({
    documentCount: m._documentCount,
    nextId: m._nextId,
    documentIds: Object.fromEntries(m._documentIds),
    fieldIds: m._fieldIds,
    fieldLength: Object.fromEntries(m._fieldLength),
    averageFieldLength: m._avgFieldLength,
    storedFields: Object.fromEntries(m._storedFields),
    dirtCount: m._dirtCount,
    index: [],
    serializationVersion: 2,
  });
  if (!head.endsWith(TAIL)) return JSON.stringify(miniSearch);
  try {
    return head.slice(0, head.length - TAIL.length + '"index":['.length) + indexJson(m) + '],"serializationVersion":2}';
  } catch (e) {
    if (e instanceof NotAnIndex) return JSON.stringify(miniSearch);
    throw e;
  }
}

class NotAnIndex extends Error {}

/** The members of the index array. */
function indexJson(m: Internals): string {
  const chunks: string[] = [];
  let chunk = '';
  let first = true;
  for (const [term, fields] of m._index) {
    chunk += `${first ? '' : ','}[${JSON.stringify(term)},{${objectOf(fields, (freqs) => `{${objectOf(freqs, String)}}`)}}]`;
    first = false;
    // a rope of millions of pieces is slow to flatten; strings of ~64 KB are not
    if (chunk.length > 65536) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  chunks.push(chunk);
  return chunks.join('');
}

/**
 * The members of Object.fromEntries(map) as JSON.stringify writes them: with integer keys (field
 * ids, short document ids) an object lists them in ascending order, whatever the map's order.
 */
function objectOf<V>(map: Map<number, V>, value: (v: V) => string): string {
  let out = '';
  let previous = -1;
  for (const [key, v] of map) {
    // only array-index keys are ordered this way (MiniSearch's ids are; anything else is refused)
    if (!Number.isInteger(key) || key < 0 || key >= 2 ** 32 - 1) throw new NotAnIndex();
    // in insertion order, which is ascending unless documents were discarded and added again
    if (key < previous) return sortedObjectOf(map, value);
    out += `${previous === -1 ? '' : ','}"${key}":${value(v)}`;
    previous = key;
  }
  return out;
}

function sortedObjectOf<V>(map: Map<number, V>, value: (v: V) => string): string {
  return [...map.keys()]
    .sort((a, b) => a - b)
    .map((key) => `"${key}":${value(map.get(key)!)}`)
    .join(',');
}
