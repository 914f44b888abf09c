// Writes data/autocomplete.bin (src/store/format/autocomplete-file.ts) from the decoded index and
// its tops.
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { AUTOCOMPLETE_FILE_FORMAT } from '../format/autocomplete-file.ts';
import type { IndexData, PrefixCodes, PrefixTops } from '../format/autocomplete-index.ts';
import type { StringList } from '../format/string-table.ts';
import { jsonSection, meta, packSections } from './sections.ts';
import { stringTableSections } from './string-table.ts';

const strings = (list: StringList) => Array.from({ length: list.length }, (_, i) => list.at(i));

export function autocompleteFile(index: IndexData, tops: PrefixTops, codes: PrefixCodes): Uint8Array {
  const suggestions = Array.from({ length: index.size }, (_, d) => index.suggestions.bytes(d));
  const suggestionStarts = new Uint32Array(index.size + 1);
  suggestions.forEach((bytes, d) => (suggestionStarts[d + 1] = suggestionStarts[d] + bytes.length));
  const suggestionBytes = new Uint8Array(suggestionStarts[index.size]);
  suggestions.forEach((bytes, d) => suggestionBytes.set(bytes, suggestionStarts[d]));
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
