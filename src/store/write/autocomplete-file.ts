// Writes data/autocomplete.bin (src/store/format/autocomplete-file.ts) from the decoded index and
// its tops.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { AUTOCOMPLETE_FILE_FORMAT } from '../format/autocomplete-file.ts';
import type { IndexData, PrefixCodes, PrefixTops } from '../format/autocomplete-index.ts';
import type { SuggestionList } from '../format/autocomplete-suggestion.ts';
import type { StringList } from '../format/string-table.ts';
import { jsonSection, meta, packSections } from './sections.ts';
import { stringTableSections } from './string-table.ts';

const strings = (list: StringList) => Array.from({ length: list.length }, (_, i) => list.at(i));

/** Bytes of one piece of the suggestions' section. */
const PIECE_BYTES = 1 << 20;

/**
 * Every object's suggestion as UTF-8, back to back, and where each starts: each one's JSON written
 * straight into pieces of a megabyte (an array of its own per object, then copied, cost twice the
 * time), which packSections copies into the file: a buffer grown to hold them all would be copied
 * at each growth, into memory just mapped. UTF-8 as TextEncoder writes it (a lone surrogate as
 * U+FFFD), which the server's reader decodes.
 */
function suggestionSection(list: SuggestionList, size: number): { pieces: Uint8Array[]; starts: Uint32Array } {
  const starts = new Uint32Array(size + 1);
  const pieces: Uint8Array[] = [];
  let out = Buffer.allocUnsafe(PIECE_BYTES);
  // bytes of the pieces before `out`, and of `out`
  let before = 0;
  let at = 0;
  for (let d = 0; d < size; d++) {
    const json = list.json(d);
    // (UTF-8 takes at most 3 bytes per UTF-16 unit)
    if (at + json.length * 3 > out.length) {
      pieces.push(out.subarray(0, at));
      before += at;
      out = Buffer.allocUnsafe(Math.max(PIECE_BYTES, json.length * 3));
      at = 0;
    }
    at += out.write(json, at);
    starts[d + 1] = before + at;
  }
  pieces.push(out.subarray(0, at));
  return { pieces, starts };
}

export function autocompleteFile(index: IndexData, tops: PrefixTops, codes: PrefixCodes): Uint8Array {
  const { pieces: suggestionBytes, starts: suggestionStarts } = suggestionSection(index.suggestions, index.size);
  const byModelStart = new Uint32Array(index.byModel.length + 1);
  index.byModel.forEach((list, m) => (byModelStart[m + 1] = byModelStart[m] + list.length));
  const byModel = new Int32Array(byModelStart[index.byModel.length]);
  index.byModel.forEach((list, m) => byModel.set(list, byModelStart[m]));
  return packSections(AUTOCOMPLETE_FILE_FORMAT, [
    meta(index.size, index.terms.length, index.postings.length, index.trie.maxDepth, tops.page, tops.keys.length, codes.keys.length),
    jsonSection(DIRECTORY_MODELS),
    index.model,
    suggestionBytes,
    suggestionStarts,
    ...stringTableSections(strings(index.terms)),
    index.postStart,
    index.postings,
    index.fwdStart,
    index.forward,
    byModel,
    byModelStart,
    index.trie.char,
    index.trie.end,
    index.trie.term,
    ...stringTableSections(strings(tops.keys)),
    tops.counts,
    tops.starts,
    tops.docs,
    tops.ranks,
    ...stringTableSections(strings(codes.keys)),
    codes.codes,
  ]);
}
