// The tops of data/autocomplete.bin (src/store/format/autocomplete-file.ts) read in parts (an edge
// isolate's): the keys when a query first looks its words up there, then, for the one key it
// finds, that key's counts and list starts, then its lists, each fetched by block. The lists of
// every key are most of the file's bytes a one-word query would otherwise fetch and check.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { AC, AUTOCOMPLETE_FILE_FORMAT } from '../format/autocomplete-file.ts';
import type { PrefixTops } from '../format/autocomplete-index.ts';
import { FormatError } from '../format/sections.ts';
import { gatherNeeds, zeroedAsWritten } from './per-need.ts';
import type { Sections } from './sections.ts';
import { StringTable } from './string-table.ts';
import type { Fault } from '../format/sections.ts';

const F = AUTOCOMPLETE_FILE_FORMAT;

export const LONG_TOPS = 'whose top lists are longer than their page';

/**
 * PrefixTops.need of tops read in parts: key `at`'s lists checked as checkTops checks them all
 * (each within `docs`, no longer than its page nor its count, naming objects of the index), once;
 * a key whose lists are not throws `fault(problem)`. A fresh isolate's answer reads one key's,
 * and checking every key's, in cold code, would be most of its work.
 */
function topsCheckedWhenRead(tops: PrefixTops, size: number, fault: Fault): (at: number) => void {
  const models = DIRECTORY_MODELS.length;
  const checked = new Uint8Array(tops.counts.length / models);
  return (at) => {
    if (checked[at] === 1) return;
    const { page, counts, starts, docs } = tops;
    for (let l = at * models; l < (at + 1) * models; l++) {
      const [from, to] = [starts[l], starts[l + 1]];
      if (!(from <= to && to <= docs.length)) throw fault(`${F.what} file whose top lists do not fit its lists`);
      if (to - from > Math.min(page, counts[l])) throw fault(`${F.what} file ${LONG_TOPS}`);
      for (let i = from; i < to; i++) if (docs[i] >= size) throw fault(`${F.what} file whose top results point outside it`);
    }
    checked[at] = 1;
  };
}

/** A section of u32 read a range at a time into an array as long as it, whose memory is taken only where a range is copied in. */
class SparseU32 {
  readonly array: Uint32Array;
  private readonly bytes: ReturnType<Sections['u8InParts']>;

  constructor(s: Sections, section: number, what: string, expected?: number) {
    this.bytes = s.u8InParts(section, what);
    if (this.bytes.length % 4 !== 0) throw new FormatError(`${F.what} file whose ${what} is not a whole number of values`);
    const n = this.bytes.length / 4;
    if (expected !== undefined && n !== expected) throw new FormatError(`${F.what} file whose ${what} holds ${n} values, not ${expected}`);
    this.array = new Uint32Array(zeroedAsWritten(this.bytes.length));
  }

  /** throws FileNeeded unless values [from, to) are at hand */
  need(from: number, to: number): void {
    this.bytes.need([[from * 4, to * 4]]);
  }

  /** copies values [from, to) in (need them first) */
  take(from: number, to: number): void {
    if (to > from) new Uint8Array(this.array.buffer).set(this.bytes.at(from * 4, to * 4), from * 4);
  }
}

/**
 * The tops (`keyCount` keys of `page` results) of a file read in parts: the keys now, and a key's
 * counts, starts and lists (in two rounds: where its lists are follows from its starts) when
 * `need(at)` first asks for that key; its lists are checked then (topsCheckedWhenRead). The
 * arrays are as long as the file's sections, holding only the keys asked for.
 */
export function readTopsInParts(s: Sections, size: number, page: number, keyCount: number, fault: Fault): PrefixTops {
  s.need([AC.topKeys, AC.topKeys + 1, AC.topKeys + 2]);
  const models = DIRECTORY_MODELS.length;
  const counts = new SparseU32(s, AC.topCounts, 'top counts', keyCount * models);
  const starts = new SparseU32(s, AC.topStarts, 'top lists', keyCount * models + 1);
  const docs = new SparseU32(s, AC.topDocs, 'top results');
  const ranks = new SparseU32(s, AC.topRanks, 'top ranks', docs.array.length);
  const keys = StringTable.read(s, AC.topKeys, 'top keys', keyCount);
  const tops: PrefixTops = { page, keys, counts: counts.array, starts: starts.array, docs: docs.array, ranks: ranks.array };
  const checked = topsCheckedWhenRead(tops, size, fault);
  const taken = new Uint8Array(keyCount);
  tops.need = (at) => {
    if (taken[at] === 0) {
      const [first, last] = [at * models, (at + 1) * models];
      gatherNeeds([() => counts.need(first, last), () => starts.need(first, last + 1)]);
      counts.take(first, last);
      starts.take(first, last + 1);
      const [from, to] = [starts.array[first], starts.array[last]];
      if (!(from <= to && to <= docs.array.length)) throw fault(`${F.what} file whose top lists do not fit its lists`);
      gatherNeeds([() => docs.need(from, to), () => ranks.need(from, to)]);
      docs.take(from, to);
      ranks.take(from, to);
      taken[at] = 1;
    }
    checked(at);
  };
  return tops;
}
