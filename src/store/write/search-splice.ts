// data/search.bin where rows changed in place (every other row at its own place, the list as
// long): the previous file spliced at the level of its lists' bytes. Only the lists of the terms a
// changed row leaves or joins are decoded and encoded again; every other list is the previous
// file's bytes, copied in runs, its reference moved by what the lists before it grew or shrank.
// The strings' sections (the text and the grams) are the previous ones unless a term appears or
// disappears, and then made from the strings as the full writer makes them. The file is the one
// search-index.ts writes for the same rows: each list is encoded by the same rule, in the same
// order (the lists' bytes lie in the file in the order of their strings).
import { bitCount, bitmapOf, bitmapWords } from '../format/bitmap.ts';
import { BITMAP_REF, ByteList, decodeSearchIndex, encodeList, encodeSearchIndex, listBytes, postingsInto, type SearchIndexData } from '../format/search/search-index-file.ts';
import type { TermSink } from '../format/search/search-text.ts';
import { newPlaces } from './column-splice.ts';
import { asBitmap, byUnits, stringSections, stringsOf, type StringSections } from './search-index.ts';

/** A row changed in place: its place in the list, and what gives a sink its terms before and after. */
export interface RowChange {
  place: number;
  before: (sink: TermSink) => void;
  after: (sink: TermSink) => void;
}

/** The places a term's list leaves and joins. */
interface TermEdit {
  leaves: number[];
  joins: number[];
}

const KINDS = 3;

const damaged = () => new Error('the previous search index is damaged');

/** The distinct words, spans and characters a row's terms give. */
function termSets(give: (sink: TermSink) => void): Set<string>[] {
  const sets = [new Set<string>(), new Set<string>(), new Set<string>()];
  give({ word: (w) => sets[0].add(w), span: (s) => sets[1].add(s), char: (c) => sets[2].add(c) });
  return sets;
}

/** Each kind's terms whose rows change, with the places they leave and join. */
function termEdits(changes: readonly RowChange[]): Map<string, TermEdit>[] {
  const edits = Array.from({ length: KINDS }, () => new Map<string, TermEdit>());
  const edit = (kind: number, term: string): TermEdit => {
    let e = edits[kind].get(term);
    if (e === undefined) edits[kind].set(term, (e = { leaves: [], joins: [] }));
    return e;
  };
  for (const c of changes) {
    const was = termSets(c.before);
    const is = termSets(c.after);
    for (let k = 0; k < KINDS; k++) {
      for (const t of was[k]) if (!is[k].has(t)) edit(k, t).leaves.push(c.place);
      for (const t of is[k]) if (!was[k].has(t)) edit(k, t).joins.push(c.place);
    }
  }
  return edits;
}

/** `term` against string i of the index, by code units. */
function compareTo(d: SearchIndexData, term: string, i: number): number {
  const from = d.textStart[i];
  const length = d.textStart[i + 1] - from;
  const n = Math.min(length, term.length);
  for (let k = 0; k < n; k++) {
    const diff = term.charCodeAt(k) - d.text[from + k];
    if (diff !== 0) return diff;
  }
  return term.length - length;
}

/** The first string of [lo, hi) not before `term` (its number where the index has it). */
function lowerBound(d: SearchIndexData, term: string, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareTo(d, term, mid) > 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows of list i, ascending. */
function listOf(d: SearchIndexData, i: number): Uint32Array {
  const out = new Uint32Array(d.lists[2 * i + 1]);
  if (postingsInto(d, i, out, 0) < 0) throw damaged();
  return out;
}

/** `rows` without the places `e` leaves (each in it) and with those it joins (none in it), ascending. */
function edited(rows: Uint32Array, e: TermEdit): Uint32Array {
  const leaves = new Set(e.leaves);
  const joins = Uint32Array.from(e.joins).sort();
  const out = new Uint32Array(rows.length - leaves.size + joins.length);
  let n = 0;
  let j = 0;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k];
    while (j < joins.length && joins[j] <= r) {
      if (joins[j] === r) throw damaged();
      out[n++] = joins[j++];
    }
    if (!leaves.delete(r)) out[n++] = r;
  }
  while (j < joins.length) out[n++] = joins[j++];
  if (leaves.size > 0 || n !== out.length) throw damaged();
  return out;
}

/** Where each varint list of the index ends: where the next one starts (they lie in list order). */
function varintEnds(d: SearchIndexData): Uint32Array {
  const lists = d.lists.length / 2;
  const ends = new Uint32Array(lists);
  let next = d.varints.length;
  for (let i = lists - 1; i >= 0; i--) {
    const ref = d.lists[2 * i];
    if (ref & BITMAP_REF) continue;
    if (ref > next) throw damaged();
    ends[i] = next;
    next = ref;
  }
  return ends;
}

/** The lists' sections written list by list: a previous list's bytes copied (runs of them at once), or a list encoded. */
class ListsWriter {
  readonly lists: Uint32Array;
  private count = 0;
  private readonly varints: Uint8Array[] = [];
  private varintBytes = 0;
  private readonly bitmaps: Int32Array[] = [];
  private bitmapCount = 0;
  /** the run of previous varint bytes and bit sets not yet taken */
  private run = { from: 0, to: 0, bitsFrom: 0, bitsTo: 0 };
  private readonly ends: Uint32Array;

  constructor(private readonly old: SearchIndexData, lists: number, private readonly perBitmap: number) {
    this.lists = new Uint32Array(2 * lists);
    this.ends = varintEnds(old);
  }

  /** List i of the previous index, as it is. */
  copy(i: number): void {
    const ref = this.old.lists[2 * i];
    const { run } = this;
    this.lists[2 * this.count + 1] = this.old.lists[2 * i + 1];
    if (ref & BITMAP_REF) {
      const b = ref & ~BITMAP_REF;
      if (b !== run.bitsTo) this.takeBits();
      if (run.bitsFrom === run.bitsTo) run.bitsFrom = run.bitsTo = b;
      run.bitsTo++;
      this.lists[2 * this.count++] = BITMAP_REF | this.bitmapCount++;
    } else {
      if (ref !== run.to) this.takeVarints();
      if (run.from === run.to) run.from = run.to = ref;
      run.to = this.ends[i];
      this.lists[2 * this.count++] = this.varintBytes;
      this.varintBytes += this.ends[i] - ref;
    }
  }

  /** A list of rows, encoded as the full writer encodes it. */
  encode(rows: Uint32Array): void {
    this.lists[2 * this.count + 1] = rows.length;
    if (asBitmap(listBytes(rows), this.perBitmap)) {
      this.takeBits();
      this.bitmaps.push(bitmapOf(rows, this.perBitmap));
      this.lists[2 * this.count++] = BITMAP_REF | this.bitmapCount++;
    } else {
      this.takeVarints();
      const bytes = new ByteList();
      encodeList(rows, bytes);
      const done = bytes.done();
      this.varints.push(done);
      this.lists[2 * this.count++] = this.varintBytes;
      this.varintBytes += done.length;
    }
  }

  /** A list made as its bit set already (one the full writer keeps as a bit set). */
  bitmap(bits: Int32Array, count: number): void {
    this.takeBits();
    this.bitmaps.push(bits);
    this.lists[2 * this.count + 1] = count;
    this.lists[2 * this.count++] = BITMAP_REF | this.bitmapCount++;
  }

  private takeVarints(): void {
    const { run } = this;
    if (run.to > run.from) this.varints.push(this.old.varints.subarray(run.from, run.to));
    run.from = run.to = 0;
  }

  private takeBits(): void {
    const { run, perBitmap } = this;
    if (run.bitsTo > run.bitsFrom) this.bitmaps.push(this.old.bitmaps.subarray(run.bitsFrom * perBitmap, run.bitsTo * perBitmap));
    run.bitsFrom = run.bitsTo = 0;
  }

  done(): { lists: Uint32Array; varints: Uint8Array; bitmaps: Int32Array } {
    this.takeVarints();
    this.takeBits();
    if (this.count * 2 !== this.lists.length) throw new Error('the spliced search index has lists missing');
    return { lists: this.lists, varints: concat(this.varints, Uint8Array), bitmaps: concat(this.bitmaps, Int32Array) };
  }
}

function concat<T extends Uint8Array | Int32Array>(pieces: T[], Kind: { new (n: number): T }): T {
  const out = new Kind(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p as never, at);
    at += p.length;
  }
  return out;
}

/**
 * The search index of the previous index's rows (`prior`, the file's bytes) with the rows
 * `changes` name changed in place: the bytes searchIndex makes of the whole list.
 */
export function searchIndexInPlace(prior: Uint8Array, changes: readonly RowChange[]): Uint8Array {
  const old = decodeSearchIndex(prior);
  const perBitmap = bitmapWords(old.rows);
  const bounds = [0, old.words, old.words + old.spans, old.words + old.spans + old.chars];
  for (const c of changes) if (!(c.place >= 0 && c.place < old.rows)) throw new Error(`row ${c.place} is not in the search index`);
  const edits = termEdits(changes);
  // each edited string's new list, by its number (empty: the string is gone); each kind's new strings
  const replaced = new Map<number, Uint32Array>();
  const added = Array.from({ length: KINDS }, () => [] as { term: string; rows: Uint32Array }[]);
  let gone = 0;
  for (let k = 0; k < KINDS; k++) {
    for (const [term, e] of edits[k]) {
      const at = lowerBound(old, term, bounds[k], bounds[k + 1]);
      const known = at < bounds[k + 1] && compareTo(old, term, at) === 0;
      const rows = edited(known ? listOf(old, at) : new Uint32Array(0), e);
      if (known) replaced.set(at, rows);
      else added[k].push({ term, rows });
      if (known && rows.length === 0) gone++;
    }
    added[k].sort((a, b) => byUnits(a.term, b.term));
  }
  return splicedIndex(old, old.rows, perBitmap, added, gone, (i) => replaced.get(i) ?? null);
}

/**
 * The index of the previous index's lists, each list i the previous one as it is where `listAt(i)`
 * is null, else those rows (none: its string is gone), with the strings `added` (each kind's,
 * sorted, with their rows) put in their places: the lists in their strings' order, each encoded by
 * the full writer's rule, the strings' sections made again only where a string came or went.
 */
function splicedIndex(old: SearchIndexData, rows: number, perBitmap: number, added: { term: string; rows: Uint32Array }[][], gone: number, listAt: (i: number) => Uint32Array | { bits: Int32Array; count: number } | null): Uint8Array {
  const bounds = [0, old.words, old.words + old.spans, old.words + old.spans + old.chars];
  const newCount = added.reduce((n, a) => n + a.length, 0);
  const writer = new ListsWriter(old, bounds[KINDS] - gone + newCount, perBitmap);
  const counts = [0, 0, 0];
  const kept: string[][] = [[], [], []];
  const all = gone > 0 || newCount > 0 ? stringsOf(old.text, old.textStart) : null;
  for (let k = 0; k < KINDS; k++) {
    let a = 0;
    const place = (next: number) => {
      // the new strings before the previous string `next` (or the kind's end)
      while (a < added[k].length && (next >= bounds[k + 1] || compareTo(old, added[k][a].term, next) < 0)) {
        writer.encode(added[k][a].rows);
        kept[k].push(added[k][a++].term);
        counts[k]++;
      }
    };
    for (let i = bounds[k]; i < bounds[k + 1]; i++) {
      place(i);
      const list = listAt(i);
      if (list instanceof Uint32Array && list.length === 0) continue;
      if (list === null) writer.copy(i);
      else if (list instanceof Uint32Array) writer.encode(list);
      else writer.bitmap(list.bits, list.count);
      if (all) kept[k].push(all[i]);
      counts[k]++;
    }
    place(bounds[k + 1]);
  }
  const strings: StringSections = all
    ? stringSections(kept[0], kept[1], kept[2])
    : { text: old.text, textStart: old.textStart, grams: old.grams, gramLists: old.gramLists, gramVarints: old.gramVarints };
  return encodeSearchIndex({ rows, words: counts[0], spans: counts[1], chars: counts[2], ...strings, ...writer.done() });
}

/** A row new to the list: its place, and what gives a sink its terms. */
export interface RowJoin {
  place: number;
  terms: (sink: TermSink) => void;
}

/**
 * The search index of a new row order (row i is the previous row order[i], or a new row where
 * that is negative; the previous rows keep their order among themselves) from the previous index
 * (`prior`) and the new rows' terms (`joins`): every list's rows renumbered in one pass (a row
 * gone leaves every list it was in), the new rows put in the lists of their terms. A list whose
 * rows did not move is the previous list's bytes (while the bit sets keep their size); the strings'
 * sections are the previous ones unless a term appears or disappears. The bytes searchIndex makes
 * of the whole list.
 */
export function searchIndexShifted(prior: Uint8Array, order: Int32Array, joins: readonly RowJoin[]): Uint8Array {
  const old = decodeSearchIndex(prior);
  const rows = order.length;
  const { now } = newPlaces(order, old.rows);
  const perOld = bitmapWords(old.rows);
  const perBitmap = bitmapWords(rows);
  for (const j of joins) if (!(j.place >= 0 && j.place < rows && order[j.place] < 0)) throw new Error(`row ${j.place} is not a new row of the list`);
  const edits = termEdits(joins.map((j) => ({ place: j.place, before: () => {}, after: j.terms })));
  const bounds = [0, old.words, old.words + old.spans, old.words + old.spans + old.chars];
  const lists = bounds[KINDS];
  // each previous list's new rows, end to end (`at`: where list i's start; -1: the list as it is)
  const at = new Int32Array(lists + 1).fill(-1);
  const joinsOf = new Map<number, TermEdit>();
  const added = Array.from({ length: KINDS }, () => [] as { term: string; rows: Uint32Array }[]);
  for (let k = 0; k < KINDS; k++) {
    for (const [term, e] of edits[k]) {
      const i = lowerBound(old, term, bounds[k], bounds[k + 1]);
      if (i < bounds[k + 1] && compareTo(old, term, i) === 0) joinsOf.set(i, e);
      else added[k].push({ term, rows: edited(new Uint32Array(0), e) });
    }
    added[k].sort((a, b) => byUnits(a.term, b.term));
  }
  // room for every varint list's rows and the rows they join at once (a bit set that becomes a list grows it)
  let flat = new Uint32Array(varintRows(old) + [...joinsOf.values()].reduce((n, e) => n + e.joins.length, 0));
  let used = 0;
  let gone = 0;
  const ends: number[] = new Array(lists);
  // the lists that stay bit sets, made a word at a time: the runs of previous rows that stay in order, moved
  const ready = new Map<number, { bits: Int32Array; count: number }>();
  const runs = rowRuns(order);
  for (let i = 0; i < lists; i++) {
    const count = old.lists[2 * i + 1];
    const ref = old.lists[2 * i];
    if (ref & BITMAP_REF) {
      const base = (ref & ~BITMAP_REF) * perOld;
      if (base + perOld > old.bitmaps.length) throw damaged();
      const bits = new Int32Array(perBitmap);
      for (let r = 0; r < runs.length; r += 3) copyBits(old.bitmaps, base, runs[r], runs[r + 1], bits, runs[r + 2]);
      const e = joinsOf.get(i);
      for (const row of e?.joins ?? []) bits[row >>> 5] |= 1 << (row & 31);
      let same = perOld === perBitmap;
      for (let w = 0; same && w < perBitmap; w++) same = bits[w] === old.bitmaps[base + w];
      if (same) continue;
      const setCount = bitCount(bits);
      // at least a byte per row: past half a bit set, a bit set
      if (setCount * 2 > perBitmap * 4) {
        ready.set(i, { bits, count: setCount });
        continue;
      }
    }
    if (used + count > flat.length) {
      const grown = new Uint32Array(Math.max(flat.length * 2, used + count));
      grown.set(flat.subarray(0, used));
      flat = grown;
    }
    // the list's rows decoded into `flat`, then renumbered in place (a gone row left out)
    if (postingsInto(old, i, flat, used) !== count) throw damaged();
    let n = 0;
    let moved = false;
    for (let k = 0; k < count; k++) {
      const row = flat[used + k];
      const r = now[row];
      if (r !== row) moved = true;
      if (r >= 0) flat[used + n++] = r;
    }
    const e = joinsOf.get(i);
    if (!moved && e === undefined && perOld === perBitmap) continue;
    let next: Uint32Array = flat.subarray(used, used + n);
    if (e !== undefined) {
      next = edited(next, e);
      if (used + next.length > flat.length) {
        const grown = new Uint32Array(Math.max(flat.length * 2, used + next.length));
        grown.set(flat.subarray(0, used));
        flat = grown;
      }
      flat.set(next, used);
    }
    at[i] = used;
    ends[i] = used + next.length;
    used += next.length;
    if (next.length === 0) gone++;
  }
  return splicedIndex(old, rows, perBitmap, added, gone, (i) => ready.get(i) ?? (at[i] < 0 ? null : flat.subarray(at[i], ends[i])));
}

/** The rows of the index's varint lists, together. */
function varintRows(d: SearchIndexData): number {
  let rows = 0;
  for (let i = 0; i < d.lists.length; i += 2) if (!(d.lists[i] & BITMAP_REF)) rows += d.lists[i + 1];
  return rows;
}

/** The runs of previous rows that stay in order: (first previous row, row after the last, how far they move), three numbers each. */
function rowRuns(order: Int32Array): number[] {
  const runs: number[] = [];
  for (let i = 0; i < order.length; ) {
    if (order[i] < 0) {
      i++;
      continue;
    }
    let k = i + 1;
    while (k < order.length && order[k] === order[k - 1] + 1) k++;
    runs.push(order[i], order[k - 1] + 1, i - order[i]);
    i = k;
  }
  return runs;
}

/** Sets in `to` the bits [from, end) of the bit set at `base` of `bits`, each `shift` places on. */
function copyBits(bits: Int32Array, base: number, from: number, end: number, to: Int32Array, shift: number): void {
  if (end <= from) return;
  for (let w = from >>> 5; w <= (end - 1) >>> 5; w++) {
    let x = bits[base + w];
    if (x === 0) continue;
    const low = w << 5;
    if (low < from) x &= -1 << (from - low);
    if (low + 32 > end) x &= (1 << (end - low)) - 1;
    if (x === 0) continue;
    const at = low + shift;
    const word = Math.floor(at / 32);
    const offset = at - word * 32;
    if (offset === 0) to[word] |= x;
    else {
      if (word >= 0) to[word] |= x << offset;
      to[word + 1] |= x >>> (32 - offset);
    }
  }
}
