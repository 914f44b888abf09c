// The sections of a spliced text column's file (column-splice.ts) taken from the previous file's
// bytes instead of being made again from every value's string: its string tables (each value's
// UTF-8 copied from the previous table by its byte starts, runs of values that keep their order in
// one piece) and its word lists (each previous list renumbered, the words of the values that came
// and went put in and taken out). Each gives the sections the builder gives (stringTableSections,
// wordListSections), to the byte; null where it cannot: a string that is not well-formed UTF-16
// (its UTF-8 is then not its own: string-table.ts), or a previous file without the sections.
import { HEADER_BYTES, MAGIC_BYTES, SECTION_ENTRY_BYTES, sectionsStart, type Format } from '../format/sections.ts';
import { readVarints, varintListBytes, writeVarintList } from '../format/trigram-file.ts';
import { jsonSection, type Section } from './sections.ts';
import { eachWord } from './word-lists.ts';

/**
 * How a splice renumbered a column's values: previous value v is value `next[v]` now (-1: gone),
 * added value k is value `next[oldCount + k]` (-1: no row has it); `oldFolded(v)` is previous value
 * v's folded text (null: the column has none).
 */
export interface Renumbering {
  readonly next: Int32Array;
  readonly oldCount: number;
  readonly oldFolded: ((v: number) => string) | null;
}

const NO_ODD = jsonSection([]);

/** The sections of a file packSections wrote, as views of its bytes; null where it is not of `format`. */
export function fileSections(bytes: Uint8Array, format: Format): Uint8Array[] | null {
  if (bytes.byteLength < sectionsStart(format.sections)) return null;
  for (let i = 0; i < MAGIC_BYTES; i++) if (bytes[i] !== format.magic.charCodeAt(i)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(MAGIC_BYTES, true) !== format.version || view.getUint32(MAGIC_BYTES + 4, true) !== format.sections) return null;
  const out: Uint8Array[] = [];
  for (let i = 0; i < format.sections; i++) {
    const offset = view.getUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES, true);
    const length = view.getUint32(HEADER_BYTES + i * SECTION_ENTRY_BYTES + 4, true);
    if (offset + length > bytes.byteLength) return null;
    out.push(bytes.subarray(offset, offset + length));
  }
  return out;
}

/** A section's u32s: a view where its bytes are aligned, else a copy. */
function u32(section: Uint8Array): Uint32Array {
  if (section.byteLength % 4 !== 0) throw new Error('a u32 section of a length that is not a multiple of 4');
  return section.byteOffset % 4 === 0 ? new Uint32Array(section.buffer, section.byteOffset, section.byteLength / 4) : new Uint32Array(section.slice().buffer);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);

/** Whether a string table's exceptions section lists none: its text is every string's own UTF-8. */
export const noExceptions = (odd: Uint8Array): boolean => sameBytes(odd, NO_ODD);

/**
 * The string table of `list` (the values by their new ids) from `old`, the previous table's three
 * sections, as stringTableSections(list) writes it; only the added values' strings are read.
 */
export function splicedStringTable(old: readonly Uint8Array[], next: Int32Array, oldCount: number, list: readonly string[]): Section[] | null {
  const [text, startBytes, odd] = old;
  if (!sameBytes(odd, NO_ODD) || startBytes.byteLength !== 8 * (oldCount + 1)) return null;
  const oldStarts = u32(startBytes);
  const count = list.length;
  const wasOf = new Int32Array(count).fill(-1);
  for (let was = 0; was < next.length; was++) if (next[was] >= 0) wasOf[next[was]] = was;
  // the UTF-16 starts, then the byte starts (string-table.ts)
  const starts = new Uint32Array(2 * (count + 1));
  const pieces: Uint8Array[] = [];
  let runFrom = 0;
  let runTo = 0;
  const flush = () => {
    if (runTo > runFrom) pieces.push(text.subarray(runFrom, runTo));
    runFrom = runTo = 0;
  };
  let bytes = 0;
  for (let v = 0; v < count; v++) {
    const was = wasOf[v];
    if (was < 0) return null;
    if (was < oldCount) {
      const from = oldStarts[oldCount + 1 + was];
      const to = oldStarts[oldCount + 2 + was];
      starts[v + 1] = starts[v] + oldStarts[was + 1] - oldStarts[was];
      if (from !== runTo || runTo === runFrom) {
        flush();
        runFrom = from;
      }
      runTo = to;
      bytes += to - from;
    } else {
      const s = list[v];
      // (a lone surrogate's UTF-8 is U+FFFD's, and joins a neighbour's into a pair: made whole)
      if (!s.isWellFormed()) return null;
      flush();
      const utf8 = Buffer.from(s, 'utf8');
      pieces.push(utf8);
      starts[v + 1] = starts[v] + s.length;
      bytes += utf8.byteLength;
    }
    starts[count + 2 + v] = bytes;
  }
  flush();
  return [pieces, starts, jsonSection([])];
}

/** The list under `key`, put there empty where there is none. */
function listIn<K>(lists: Map<K, number[]>, key: K): number[] {
  let list = lists.get(key);
  if (list === undefined) lists.set(key, (list = []));
  return list;
}

/** The distinct words of a text. */
function wordSet(text: string): Set<string> {
  const words = new Set<string>();
  eachWord(text, (w) => words.add(w));
  return words;
}

/**
 * The word lists' sections of `folded` (the values' folded texts by their new ids) from `old`, the
 * previous file's six word-list sections, as wordListSections(folded) writes them where it writes
 * any (the caller has checked that it does); null where the previous file has none.
 */
export function splicedWordLists(old: readonly Uint8Array[], folded: readonly string[], r: Renumbering): Section[] | null {
  const { next, oldCount, oldFolded } = r;
  const [wordText, wordStartBytes, wordOdd, countBytes, startBytes, lists] = old;
  if (oldFolded === null || countBytes.byteLength % 4 !== 0 || !sameBytes(wordOdd, NO_ODD)) return null;
  const oldWords = countBytes.byteLength / 4;
  if (wordStartBytes.byteLength !== 8 * (oldWords + 1) || startBytes.byteLength !== 4 * (oldWords + 1)) return null;
  const counts = u32(countBytes);
  const starts = u32(startBytes);
  const wordStarts = u32(wordStartBytes);
  const text = new TextDecoder().decode(wordText);
  const wordAt = (k: number) => text.slice(wordStarts[k], wordStarts[k + 1]);
  /** the first previous word not before `word` */
  const lowerBound = (word: string) => {
    let lo = 0;
    let hi = oldWords;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (wordAt(mid) < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // the values gone take their id out of their words' lists; the added put theirs in
  const lose = new Map<number, number>();
  const gainOld = new Map<number, number[]>();
  const gainFresh = new Map<string, number[]>();
  for (let was = 0; was < next.length; was++) {
    const gone = was < oldCount;
    if (gone ? next[was] >= 0 : next[was] < 0) continue;
    for (const word of wordSet(gone ? oldFolded(was) : folded[next[was]])) {
      const k = lowerBound(word);
      const known = k < oldWords && wordAt(k) === word;
      if (gone) {
        if (!known) return null;
        lose.set(k, (lose.get(k) ?? 0) + 1);
        continue;
      }
      if (known) listIn(gainOld, k).push(next[was]);
      else listIn(gainFresh, word).push(next[was]);
    }
  }
  // the words now: the previous ones still had, with the new ones at their places, ascending
  const fresh = [...gainFresh.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const freshAt = fresh.map(lowerBound);
  const wordNext = new Int32Array(oldWords + fresh.length).fill(-1);
  const newWords: string[] = [];
  /** per new word: a previous word's index, or -1 - its index in `fresh` */
  const source: number[] = [];
  for (let k = 0, f = 0; k < oldWords || f < fresh.length; ) {
    if (f < fresh.length && freshAt[f] <= k) {
      wordNext[oldWords + f] = newWords.length;
      newWords.push(fresh[f]);
      source.push(-1 - f++);
      continue;
    }
    if (counts[k] - (lose.get(k) ?? 0) + (gainOld.get(k)?.length ?? 0) > 0) {
      wordNext[k] = newWords.length;
      // (a previous word's string is not read: the table is spliced from its bytes)
      newWords.push('');
      source.push(k);
    }
    k++;
  }
  const table = splicedStringTable([wordText, wordStartBytes, wordOdd], wordNext, oldWords, newWords);
  if (table === null) return null;
  // each word's list: its previous ids renumbered (the gone left out), with the added ones
  const outCounts = new Uint32Array(newWords.length);
  const outStarts = new Uint32Array(newWords.length + 1);
  let bytes = new Uint8Array(lists.byteLength + 64);
  let scratch = new Uint32Array(64);
  let ids = new Uint32Array(64);
  for (let w = 0; w < newWords.length; w++) {
    const k = source[w];
    const added = k >= 0 ? gainOld.get(k) : gainFresh.get(fresh[-1 - k]);
    const before = k >= 0 ? counts[k] : 0;
    const most = before + (added?.length ?? 0);
    if (ids.length < most) ids = new Uint32Array(2 * most);
    if (scratch.length < before) scratch = new Uint32Array(2 * before);
    let m = 0;
    let ordered = true;
    if (k >= 0) {
      readVarints(lists, starts[k], before, scratch);
      for (let i = 0; i < before; i++) {
        const id = next[scratch[i]];
        if (id < 0) continue;
        if (m > 0 && id < ids[m - 1]) ordered = false;
        ids[m++] = id;
      }
    }
    if (added) for (const id of added) ids[m++] = id;
    // (a previous file whose counts do not add up is not spliced from)
    if (m !== most - (k >= 0 ? lose.get(k) ?? 0 : 0)) return null;
    const list = ids.subarray(0, m);
    if (!ordered || added) list.sort();
    const size = varintListBytes(list);
    if (outStarts[w] + size > bytes.byteLength) {
      const grown = new Uint8Array(2 * (outStarts[w] + size));
      grown.set(bytes.subarray(0, outStarts[w]));
      bytes = grown;
    }
    writeVarintList(bytes, outStarts[w], list);
    outCounts[w] = m;
    outStarts[w + 1] = outStarts[w] + size;
  }
  return [...table, outCounts, outStarts, bytes.subarray(0, outStarts[newWords.length])];
}
