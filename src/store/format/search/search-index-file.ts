// data/search.bin: the index `search` answers from (query/events/search/), written by the build
// (store/write/search-index.ts) and viewed in place by the server (store/read/search-index.ts).
//
// Body text is most of an event's text, so no n-gram of it is indexed per event. The index holds:
// - the words: every distinct word (a maximal run of letters and digits) of the folded forms of
//   the searched fields (search-text.ts), sorted, each with the rows that have it. A term made of
//   letters and digits occurs in a text exactly when it occurs in one of the text's words, so it
//   is answered by the words that contain it, without reading any event;
// - the spans: every distinct maximal run without whitespace that holds another character than a
//   letter or digit (`e-mail`, `18:00`, `www.example.org/`), each with its rows. A term without
//   whitespace that is not all letters and digits occurs exactly when it occurs in one of them;
// - the characters: every distinct character of those forms but whitespace, each with its rows (a
//   one-letter term, punctuation such as `&`);
// - the grams of the words and spans: every distinct string of 2 or 3 UTF-16 units found in one,
//   with the words and spans that contain it. The words a term is found in are those of its
//   grams' lists (exact for a term of 2 or 3 units, else checked).
// Only a phrase (a quoted term with a space) is checked against the events' text.
// A row list is delta-encoded varints, or a bit set over the rows where that is not twice as
// small. Strings are UTF-16 code units, one table for all.
//
// The file is sections of typed arrays, each at a multiple of 8 bytes, so that a reader views
// them in place:
//
//   bytes 0..7   magic "aula-sch"     bytes 8..11  version (u32)     bytes 12..15  sections (u32)
//   then per section its byte offset and byte length (u32, u32), then the sections, padded
//
//   0 counts      u32 × 5: rows, words, spans, characters, grams
//   1 text        u16: every string's code units: the words, the spans, the characters, the
//                 grams (each sorted by code units)
//   2 textStart   u32 × (strings + 1): where each string starts in `text`
//   3 lists       u32 × 2 per word, span and character: [ref, count]; ref with bit 31 set is a
//                 bit set's number in `bitmaps`, else a byte offset in `varints`
//   4 varints     u8: row lists, each row as the gap to the previous one minus one (the first:
//                 the row itself), LEB128
//   5 bitmaps     i32 × ceil(rows / 32) per bit set
//   6 gramLists   u32 × 2 per gram: [byte offset in gramVarints, count]
//   7 gramVarints u8: lists of words and spans, by number (the words' 0.., the spans' after
//                 them), encoded as the row lists
// Numbers are little-endian, as typed arrays hold them where Node and workerd run.
import { bitCount, bitmapWords, eachSetBit } from '../bitmap.ts';

export const SEARCH_INDEX_MAGIC = 'aula-sch';
export const SEARCH_INDEX_VERSION = 1;
const SECTIONS = 8;
const HEADER = 16;

/** Marks a list's ref as a bit set's number. */
export const BITMAP_REF = 0x8000_0000;

export interface SearchIndexData {
  readonly rows: number;
  readonly words: number;
  readonly spans: number;
  readonly chars: number;
  readonly grams: number;
  readonly text: Uint16Array;
  readonly textStart: Uint32Array;
  readonly lists: Uint32Array;
  readonly varints: Uint8Array;
  readonly bitmaps: Int32Array;
  readonly gramLists: Uint32Array;
  readonly gramVarints: Uint8Array;
}

const align = (n: number) => (n + 7) & ~7;

/** The file's bytes. */
export function encodeSearchIndex(d: SearchIndexData): Uint8Array {
  const sections: ArrayBufferView[] = [
    Uint32Array.of(d.rows, d.words, d.spans, d.chars, d.grams),
    d.text, d.textStart, d.lists, d.varints, d.bitmaps, d.gramLists, d.gramVarints,
  ];
  let at = align(HEADER + SECTIONS * 8);
  const places = sections.map((s) => {
    const place = at;
    at = align(at + s.byteLength);
    return place;
  });
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) out[i] = SEARCH_INDEX_MAGIC.charCodeAt(i);
  view.setUint32(8, SEARCH_INDEX_VERSION, true);
  view.setUint32(12, SECTIONS, true);
  sections.forEach((s, i) => {
    view.setUint32(HEADER + i * 8, places[i], true);
    view.setUint32(HEADER + i * 8 + 4, s.byteLength, true);
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), places[i]);
  });
  return out;
}

/** What is wrong with a file that is not a search index this reader knows, or null. */
function headerProblem(bytes: Uint8Array): string | null {
  if (bytes.byteLength < HEADER + SECTIONS * 8) return 'it is too short to be a search index';
  for (let i = 0; i < 8; i++) if (bytes[i] !== SEARCH_INDEX_MAGIC.charCodeAt(i)) return 'it is not a search index';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== SEARCH_INDEX_VERSION) return `it is a search index of version ${version}, this aula reads version ${SEARCH_INDEX_VERSION}`;
  if (view.getUint32(12, true) !== SECTIONS) return 'it has the wrong number of sections';
  return null;
}

/**
 * The file's sections as typed arrays over its bytes (copied first when they are not 8-byte
 * aligned). Throws an Error saying what is wrong when it is not a whole search index.
 */
export function decodeSearchIndex(file: Uint8Array): SearchIndexData {
  const problem = headerProblem(file);
  if (problem) throw new Error(problem);
  const bytes = file.byteOffset % 8 === 0 ? file : file.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const section = <T>(i: number, make: (buffer: ArrayBufferLike, offset: number, length: number) => T, size: number): T => {
    const offset = view.getUint32(HEADER + i * 8, true);
    const length = view.getUint32(HEADER + i * 8 + 4, true);
    if (offset % 8 !== 0 || offset + length > bytes.byteLength || length % size !== 0) throw new Error(`its section ${i} lies outside the file`);
    return make(bytes.buffer, bytes.byteOffset + offset, length / size);
  };
  const u32 = (i: number) => section(i, (b, o, n) => new Uint32Array(b, o, n), 4);
  const u8 = (i: number) => section(i, (b, o, n) => new Uint8Array(b, o, n), 1);
  const counts = u32(0);
  if (counts.length !== 5) throw new Error('its counts are not five numbers');
  const [rows, words, spans, chars, grams] = counts;
  const d: SearchIndexData = {
    rows, words, spans, chars, grams,
    text: section(1, (b, o, n) => new Uint16Array(b, o, n), 2),
    textStart: u32(2),
    lists: u32(3),
    varints: u8(4),
    bitmaps: section(5, (b, o, n) => new Int32Array(b, o, n), 4),
    gramLists: u32(6),
    gramVarints: u8(7),
  };
  const strings = words + spans + chars + grams;
  const shapeOk =
    d.textStart.length === strings + 1 && d.textStart[strings] === d.text.length && d.lists.length === 2 * (words + spans + chars) &&
    d.gramLists.length === 2 * grams && d.bitmaps.length % Math.max(1, bitmapWords(rows)) === 0;
  if (!shapeOk) throw new Error('its sections do not fit its counts');
  return d;
}

/**
 * Decodes a delta-varint list starting at `at` of `bytes` holding `count` numbers, calling `each`
 * with every number in order; stops (returning false) at a list that runs past the bytes or past
 * `below`.
 */
export function eachListed(bytes: Uint8Array, at: number, count: number, below: number, each: (n: number) => void): boolean {
  let prev = -1;
  for (let k = 0; k < count; k++) {
    let gap = 0;
    let shift = 0;
    let b: number;
    do {
      if (at >= bytes.length || shift > 28) return false;
      b = bytes[at++];
      gap += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    prev += gap + 1;
    if (prev >= below) return false;
    each(prev);
  }
  return true;
}

/**
 * Calls `each` with the rows of word, span or character list `i` of `d`, ascending; false where
 * the list is not whole (its bit set or varints run past their section or past the rows, or it
 * does not hold its count).
 */
export function eachPosting(d: SearchIndexData, i: number, each: (row: number) => void): boolean {
  const ref = d.lists[2 * i];
  const count = d.lists[2 * i + 1];
  if (!(ref & BITMAP_REF)) return eachListed(d.varints, ref, count, d.rows, each);
  const words = bitmapWords(d.rows);
  const at = (ref & ~BITMAP_REF) * words;
  if (at + words > d.bitmaps.length) return false;
  const bits = d.bitmaps.subarray(at, at + words);
  // no bit past the rows, as many as the count says
  if ((d.rows & 31) !== 0 && bits[words - 1] >>> (d.rows & 31) !== 0) return false;
  if (bitCount(bits) !== count) return false;
  eachSetBit(bits, each);
  return true;
}

/**
 * The rows of list `i` of `d`, ascending, written into `out` from `at` (room for the list's count
 * must be there): their number, or -1 where the list is not whole (as eachPosting refuses it). A
 * loop of its own, not eachPosting's callback: the splice decodes every list of an index with it.
 */
export function postingsInto(d: SearchIndexData, i: number, out: Uint32Array, at: number): number {
  const ref = d.lists[2 * i];
  const count = d.lists[2 * i + 1];
  let n = at;
  if (ref & BITMAP_REF) {
    const words = bitmapWords(d.rows);
    const from = (ref & ~BITMAP_REF) * words;
    if (from + words > d.bitmaps.length) return -1;
    for (let w = 0; w < words; w++) {
      let word = d.bitmaps[from + w];
      while (word !== 0) {
        const low = word & -word;
        const row = (w << 5) | (31 - Math.clz32(low));
        if (n - at >= count || row >= d.rows) return -1;
        out[n++] = row;
        word ^= low;
      }
    }
    return n - at === count ? count : -1;
  }
  const bytes = d.varints;
  let p = ref;
  let row = -1;
  for (let k = 0; k < count; k++) {
    let gap = 0;
    let shift = 0;
    let b: number;
    do {
      if (p >= bytes.length || shift > 28) return -1;
      b = bytes[p++];
      gap += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    row += gap + 1;
    if (row >= d.rows) return -1;
    out[n++] = row;
  }
  return count;
}

/** Appends the delta-varint encoding of the ascending numbers `list` to `out` (a growing byte list). */
export function encodeList(list: ArrayLike<number>, out: ByteList): void {
  let prev = -1;
  for (let i = 0; i < list.length; i++) {
    let gap = list[i] - prev - 1;
    prev = list[i];
    while (gap >= 0x80) {
      out.push((gap & 0x7f) | 0x80);
      gap = Math.floor(gap / 0x80);
    }
    out.push(gap);
  }
}

/** Bytes of the delta-varint encoding of the ascending numbers `list`. */
export function listBytes(list: ArrayLike<number>): number {
  let bytes = 0;
  let prev = -1;
  for (let i = 0; i < list.length; i++) {
    const gap = list[i] - prev - 1;
    prev = list[i];
    bytes += gap < 0x80 ? 1 : gap < 0x4000 ? 2 : gap < 0x200000 ? 3 : gap < 0x10000000 ? 4 : 5;
  }
  return bytes;
}

/** A byte list that grows by doubling. */
export class ByteList {
  private bytes = new Uint8Array(1024);
  length = 0;
  push(b: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = b;
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}
