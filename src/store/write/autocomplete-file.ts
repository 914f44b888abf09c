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

/**
 * Every object's suggestion as UTF-8, back to back, and where each starts: each one's JSON written
 * straight into one buffer (an array of its own per object, then copied, cost twice the time).
 * UTF-8 as TextEncoder writes it (a lone surrogate as U+FFFD), which the server's reader decodes.
 */
function suggestionSection(list: SuggestionList, size: number): { bytes: Uint8Array; starts: Uint32Array } {
  const starts = new Uint32Array(size + 1);
  let out = Buffer.allocUnsafe(1 << 16);
  let at = 0;
  for (let d = 0; d < size; d++) {
    const json = list.json(d);
    // (UTF-8 takes at most 3 bytes per UTF-16 unit)
    if (at + json.length * 3 > out.length) {
      const grown = Buffer.allocUnsafe(Math.max(at + json.length * 3, out.length * 2));
      out.copy(grown, 0, 0, at);
      out = grown;
    }
    at += out.write(json, at);
    starts[d + 1] = at;
  }
  return { bytes: out.subarray(0, at), starts };
}

export function autocompleteFile(index: IndexData, tops: PrefixTops, codes: PrefixCodes): Uint8Array {
  const { bytes: suggestionBytes, starts: suggestionStarts } = suggestionSection(index.suggestions, index.size);
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
