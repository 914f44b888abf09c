// Reads data/autocomplete.bin (src/store/format/autocomplete-file.ts): the index the searcher
// works on, every array a view of the file, nothing decoded but its terms and the keys of its tops and prefix codes.
// Read in parts (the edge), the suggestions, the tops and the prefix codes are fetched as queries
// need them: the suggestions a page shows, the tops when a query looks its words up there, the
// rows of the codes a query's pass reads (with its postings); and their lists are checked as they
// are first read, not all at load.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { AC, AUTOCOMPLETE_FILE_FORMAT } from '../format/autocomplete-file.ts';
import { codeStride, NO_CODE, type IndexData, type PrefixCodes, type PrefixTops } from '../format/autocomplete-index.ts';
import { storedSuggestions } from '../format/autocomplete-suggestion.ts';
import { FormatError } from '../format/sections.ts';
import { check, checkBelow, checkStarts, checkWithin, Sections } from './sections.ts';
import { StringTable } from './string-table.ts';
import type { Fault } from '../format/sections.ts';
import { checkedOnce, zeroedAsWritten } from './per-need.ts';
import { LONG_TOPS, readTopsInParts } from './autocomplete-tops.ts';

const F = AUTOCOMPLETE_FILE_FORMAT;

/**
 * Whether every 4 bits of `codes` are 0..3 or NO_CODE (15), 32 bits at a time (the section is
 * aligned): a nibble with either of its upper bits set must have all four set.
 */
function validCodes(codes: Uint8Array): boolean {
  const words = new Uint32Array(codes.buffer, codes.byteOffset, codes.length >> 2);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const high = w & 0xcccccccc;
    const mask = (((high >>> 2) | (high >>> 3)) & 0x11111111) * 15;
    if ((w & mask) >>> 0 !== mask) return false;
  }
  for (let i = words.length << 2; i < codes.length; i++) {
    for (const v of [codes[i] & 15, codes[i] >> 4]) if (v > 3 && v !== NO_CODE) return false;
  }
  return true;
}

/**
 * The lists a query's words are matched in (and the objects by model an empty query lists): read
 * in parts, each group is fetched when an answer first reads it, its sections in one round (the
 * list starts, a few KB, with the file's head). A query whose first page was stored at build
 * time (the tops) is answered without them: most of the file.
 */
const GROUPS = {
  postings: [AC.postings],
  forward: [AC.fwdStart, AC.forward],
  byModel: [AC.byModelStart, AC.byModel],
} as const;
const MATCHING: readonly number[] = Object.values(GROUPS).flat();

/**
 * The tops' sections: read in parts, not with the others (they are most of what EAGER would
 * fetch): the keys when a query first looks its words up there (a query of words typed apart never
 * does), then the one key's lists (autocomplete-tops.ts).
 */
const TOPS: readonly number[] = [AC.topKeys, AC.topKeys + 1, AC.topKeys + 2, AC.topCounts, AC.topStarts, AC.topDocs, AC.topRanks];

/** every section but the suggestions, the prefix codes, MATCHING and TOPS, which are read when an answer first needs them */
const EAGER = Array.from({ length: F.sections }, (_, i) => i).filter((i) => i !== AC.suggestions && i !== AC.codes && !MATCHING.includes(i) && !TOPS.includes(i));

type Matching = Pick<IndexData, 'postStart' | 'postings' | 'fwdStart' | 'forward' | 'byModel'>;

/** The start of each term's postings, checked: `termCount` terms and `postingCount` postings. */
function readPostStart(s: Sections, termCount: number, postingCount: number): Int32Array {
  const postStart = s.i32(AC.postStart, 'posting lists', termCount + 1);
  checkStarts(postStart, postingCount, F, 'posting lists');
  return postStart;
}

/** Each group of MATCHING (GROUPS), read and checked: `size` objects, `termCount` terms and `postingCount` postings. */
function readGroup(s: Sections, group: keyof typeof GROUPS, size: number, termCount: number, postingCount: number): Partial<Matching> {
  s.need(GROUPS[group]);
  switch (group) {
    case 'postings': {
      const postings = s.i32(AC.postings, 'postings', postingCount);
      // each doc × 2 + class (a scan, no call per value: these loops run cold in a fresh edge isolate)
      checkBelow(postings, size * 2, F, 'postings');
      return { postings };
    }
    case 'forward': {
      const fwdStart = s.i32(AC.fwdStart, 'forward lists', size + 1);
      const forward = s.i32(AC.forward, 'forward lists', postingCount);
      checkStarts(fwdStart, postingCount, F, 'forward lists');
      // each term × 2 + class
      checkBelow(forward, termCount * 2, F, 'postings');
      return { fwdStart, forward };
    }
    case 'byModel': {
      const byModelStart = s.u32(AC.byModelStart, 'model lists', DIRECTORY_MODELS.length + 1);
      const byModelAll = s.i32(AC.byModel, 'objects by model', size);
      checkStarts(byModelStart, size, F, 'model lists');
      checkBelow(byModelAll, size, F, 'objects by model');
      return { byModel: Array.from({ length: DIRECTORY_MODELS.length }, (_, m) => byModelAll.subarray(byModelStart[m], byModelStart[m + 1])) };
    }
  }
}

/** MATCHING's sections, read and checked now (a file read whole). */
function readMatching(s: Sections, size: number, termCount: number, postingCount: number): Matching {
  s.need(MATCHING);
  const groups = (Object.keys(GROUPS) as (keyof typeof GROUPS)[]).map((g) => readGroup(s, g, size, termCount, postingCount));
  return Object.assign({ postStart: readPostStart(s, termCount, postingCount) }, ...groups) as Matching;
}

/** Postings copied into a stand-in a chunk at a time (postingsInParts); a multiple of 4 bytes. */
const POSTINGS_CHUNK = 64 * 1024;

/**
 * The postings of a file read in parts: the chunks of the section that hold the postings a query
 * reads are fetched, checked and copied in when its plan names them (IndexData.needPostings),
 * before it reads them; no other posting is read. A chunk that names an object outside the index
 * throws `fault(problem)`.
 */
function postingsInParts(section: ReturnType<Sections['u8InParts']>, postingCount: number, size: number, fault: Fault): Pick<IndexData, 'postings' | 'needPostings'> {
  const postings = new Int32Array(zeroedAsWritten(postingCount * 4));
  const bytes = new Uint8Array(postings.buffer);
  const copied = new Uint8Array(Math.ceil(section.length / POSTINGS_CHUNK));
  const chunkRange = (c: number) => [c * POSTINGS_CHUNK, Math.min((c + 1) * POSTINGS_CHUNK, section.length)] as const;
  return {
    postings,
    needPostings(segments, from) {
      const chunks: number[] = [];
      for (let s = from; s < segments.length; s += 3) {
        if (segments[s + 1] <= segments[s]) continue;
        const last = Math.floor((segments[s + 1] * 4 - 1) / POSTINGS_CHUNK);
        for (let c = Math.floor((segments[s] * 4) / POSTINGS_CHUNK); c <= last; c++) if (copied[c] === 0) chunks.push(c);
      }
      if (chunks.length === 0) return;
      section.need(chunks.map(chunkRange));
      for (const c of chunks) {
        if (copied[c] === 1) continue;
        const [start, end] = chunkRange(c);
        bytes.set(section.at(start, end), start);
        try {
          checkBelow(postings.subarray(start >> 2, end >> 2), size * 2, F, 'postings');
        } catch (e) {
          if (e instanceof FormatError) throw fault(e.message);
          throw e;
        }
        copied[c] = 1;
      }
    },
  };
}

/**
 * `index` with each group of MATCHING read when first read, the postings a query reads when its
 * plan names them (a file read in parts): a damaged section found then throws `fault(problem)`,
 * as one found at load names the file.
 */
function matchingWhenRead(index: Omit<IndexData, keyof Matching>, s: Sections, counts: [size: number, termCount: number, postingCount: number], fault: Fault): IndexData {
  const group = (name: keyof typeof GROUPS) => checkedOnce(fault, () => readGroup(s, name, ...counts));
  const groups = { forward: group('forward'), byModel: group('byModel') };
  const member = { fwdStart: groups.forward, forward: groups.forward, byModel: groups.byModel };
  for (const name of ['fwdStart', 'forward', 'byModel'] as const) {
    Object.defineProperty(index, name, { get: () => member[name]()[name], enumerable: true });
  }
  check(s.byteLength(AC.postings) === counts[2] * 4, F, `whose postings are not ${counts[2]}`);
  const postings = postingsInParts(s.u8InParts(AC.postings, 'postings'), counts[2], counts[0], fault);
  return Object.assign(index, { postStart: readPostStart(s, counts[1], counts[2]) }, postings) as IndexData;
}

/**
 * The prefix codes of a file read in parts: a key's row is fetched, and checked, when a query's
 * plan names it (need), before the query reads it; no other row is read. A row that holds no codes
 * throws `fault(problem)`: found by an answer, it names the file as damage found at load does.
 */
function codesInParts(section: ReturnType<Sections['u8InParts']>, stride: number, keyCount: number, keys: StringTable, fault: Fault): PrefixCodes {
  // the rows named so far, copied in where a query reads them (the rest never written, nor read)
  const codes = new Uint8Array(zeroedAsWritten(section.length));
  const copied = new Uint8Array(keyCount);
  return {
    keys,
    codes,
    need(tables) {
      section.need(tables.map((k) => [k * stride, (k + 1) * stride] as const));
      for (const k of tables) {
        if (copied[k] === 1) continue;
        const row = section.at(k * stride, (k + 1) * stride);
        if (!validCodeBytes(row)) throw fault(`${F.what} file ${NO_CODES}`);
        codes.set(row, k * stride);
        copied[k] = 1;
      }
    },
  };
}

/** validModels is written for six models: another count fails to compile here. */
const MODELS: 6 = DIRECTORY_MODELS.length;

/**
 * Whether every value of `model` is below MODELS (6): no byte with a bit above its lowest three
 * set, nor its bits 1 and 2 both (6, 7). Four at a time where the bytes are aligned: the loop runs
 * cold in a fresh edge isolate, where each iteration counts.
 */
function validModels(model: Uint8Array): boolean {
  const aligned = model.byteOffset % 4 === 0;
  const words = aligned ? new Uint32Array(model.buffer, model.byteOffset, model.length >> 2) : new Uint32Array(0);
  let bad = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    bad |= (w & 0xf8f8f8f8) | (w & (w >>> 1) & 0x02020202);
  }
  for (let i = words.length << 2; i < model.length; i++) if (model[i] >= MODELS) bad = 1;
  return bad === 0;
}

/** Whether each node's end lies after it and within the trie. */
function endsAfter(end: Int32Array): boolean {
  const n = end.length;
  for (let i = 0; i < n; i++) {
    const e = end[i];
    if (e <= i || e > n) return false;
  }
  return true;
}

/** validCodes of bytes at any offset (a row of the codes need not start at a multiple of 4). */
function validCodeBytes(codes: Uint8Array): boolean {
  if (codes.byteOffset % 4 === 0) return validCodes(codes);
  for (let i = 0; i < codes.length; i++) {
    const lo = codes[i] & 15;
    const hi = codes[i] >> 4;
    if ((lo > 3 && lo !== NO_CODE) || (hi > 3 && hi !== NO_CODE)) return false;
  }
  return true;
}

const NO_CODES = 'whose prefix codes are no codes';


/** Checks every key's lists of the tops: they fit `docs`, are no longer than their page nor their count, and name objects of the index. */
function checkTops(tops: PrefixTops, size: number): void {
  const { page, counts, starts, docs } = tops;
  checkStarts(starts, docs.length, F, 'top lists');
  checkBelow(docs, size, F, 'top results');
  for (let i = 0; i < counts.length; i++) check(starts[i + 1] - starts[i] <= Math.min(page, counts[i]), F, LONG_TOPS);
}

/** The tops (`keyCount` keys of `page` results) of a file read whole, every key's lists checked now (read in parts: autocomplete-tops.ts). */
function readTops(s: Sections, size: number, page: number, keyCount: number): PrefixTops {
  const models = DIRECTORY_MODELS.length;
  const counts = s.u32(AC.topCounts, 'top counts', keyCount * models);
  const starts = s.u32(AC.topStarts, 'top lists', keyCount * models + 1);
  const docs = s.u32(AC.topDocs, 'top results');
  const ranks = s.u32(AC.topRanks, 'top ranks', docs.length);
  const tops: PrefixTops = { page, keys: StringTable.read(s, AC.topKeys, 'top keys', keyCount), counts, starts, docs, ranks };
  checkTops(tops, size);
  return tops;
}

/**
 * The byte ranges of the suggestions of `docs`, each checked to lie within the section (`length`
 * bytes): read in parts, the objects' places are checked as a page first reads them, not all at load.
 */
function suggestionRanges(docs: ArrayLike<number>, starts: Uint32Array, length: number, fault: Fault): [number, number][] {
  const ranges = new Array<[number, number]>(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const [from, to] = [starts[docs[i]], starts[docs[i] + 1]];
    if (!(from <= to && to <= length)) throw fault(`${F.what} file whose suggestions do not fit its lists`);
    ranges[i] = [from, to];
  }
  return ranges;
}

/**
 * `fault`: what a part of the file read when an answer first needs it (a file read in parts)
 * throws when it is damaged; without it, a FormatError.
 */
export function readAutocompleteFile(bytes: Uint8Array, fault: Fault = (problem) => new FormatError(problem)): IndexData {
  const s = Sections.of(bytes, F);
  // (a file read in parts fetches these in one round)
  s.need(EAGER);
  const [size, termCount, postingCount, maxDepth, page, keyCount, codeKeyCount] = s.meta(AC.header, 7);
  const models = s.json(AC.models, 'models');
  check(Array.isArray(models) && models.join(',') === DIRECTORY_MODELS.join(','), F, 'made for a different list of models');
  const model = s.u8(AC.model, 'models of objects', size);
  check(validModels(model), F, 'whose objects name models it does not have');
  const suggestionStarts = s.u32(AC.suggestionStarts, 'suggestion offsets', size + 1);
  // read a page at a time: a file read in parts fetches the suggestions a page shows
  const inParts = s.u8InParts(AC.suggestions, 'suggestions');
  // read whole, every object's place is checked now; read in parts, those of the objects a page shows, then
  if (!s.inParts) checkStarts(suggestionStarts, inParts.length, F, 'suggestions');
  const suggestions = storedSuggestions(s.inParts ? inParts.at : s.u8(AC.suggestions, 'suggestions'), suggestionStarts);
  if (s.inParts) suggestions.need = (docs) => inParts.need(suggestionRanges(docs, suggestionStarts, inParts.length, fault));
  const char = s.u16(AC.trieChar, 'trie');
  const end = s.i32(AC.trieEnd, 'trie', char.length);
  const term = s.i32(AC.trieTerm, 'trie', char.length);
  check(endsAfter(end), F, 'whose trie points outside it');
  checkWithin(term, termCount, F, 'whose trie points outside it');
  const stride = codeStride(size);
  check(s.byteLength(AC.codes) === codeKeyCount * stride, F, 'whose prefix codes are not one row per key');
  const codeKeys = StringTable.read(s, AC.codeKeys, 'prefix code keys', codeKeyCount);
  const codes: PrefixCodes = s.inParts ? codesInParts(s.u8InParts(AC.codes, 'prefix codes'), stride, codeKeyCount, codeKeys, fault) : { keys: codeKeys, codes: s.u8(AC.codes, 'prefix codes') };
  // each 4 bits a code (0..3, tier × 2 + class of an exact or prefix match) or NO_CODE (15); read
  // whole, checked whole now, so a bad file is refused at load
  if (!s.inParts) check(validCodes(codes.codes), F, NO_CODES);
  const index = {
    size,
    model,
    suggestions,
    terms: StringTable.read(s, AC.terms, 'terms', termCount),
    trie: { char, end, term, maxDepth },
    codes,
  };
  if (s.inParts) {
    Object.defineProperty(index, 'tops', { get: checkedOnce(fault, () => readTopsInParts(s, size, page, keyCount, fault)), enumerable: true });
    return matchingWhenRead(index as typeof index & Pick<IndexData, 'tops'>, s, [size, termCount, postingCount], fault);
  }
  return { ...index, tops: readTops(s, size, page, keyCount), ...readMatching(s, size, termCount, postingCount) };
}
