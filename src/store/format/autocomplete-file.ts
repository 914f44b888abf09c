// data/autocomplete.bin: the autocomplete's index as the server searches it (IndexData,
// autocomplete-index.ts), every array ready to view in place, and the first results of the
// costliest queries (PrefixTops). Made by the build from the same index as
// autocomplete/index.json, which the browser module still loads and decodes (it has no tops).
//
//   0  header: objects, terms, postings, trie depth, page size of the tops, tops keys, code keys
//   1  the models, as JSON (DIRECTORY_MODELS when written: `model` values index into it)
//   2  model u8 (per object, in listing order)
//   3  the objects' suggestions as an answer shows them (autocomplete-suggestion.ts), UTF-8, back
//      to back, 4 where each starts u32 (objects + 1): an answer copies them as they are
//   5–7 the terms, sorted (a string table)
//   8 postStart i32, 9 postings i32; 10 fwdStart i32, 11 forward i32
//   12 byModel i32 (each model's objects, model after model), 13 byModelStart u32
//   14 trie char u16, 15 trie end i32, 16 trie term i32 (term-trie.ts)
//   17–19 tops keys (a string table), 20 counts u32, 21 starts u32, 22 docs u32, 23 ranks u32
//   24–26 the prefixes of PrefixCodes (a string table), 27 their codes u8 (4 bits an object)
import type { Format } from './sections.ts';

export const AUTOCOMPLETE_FILE_FORMAT: Format = { magic: 'aula-acx', version: 4, sections: 28, what: 'an autocomplete index' };

export const AC = {
  header: 0, models: 1, model: 2, suggestions: 3, suggestionStarts: 4, terms: 5,
  postStart: 8, postings: 9, fwdStart: 10, forward: 11, byModel: 12, byModelStart: 13,
  trieChar: 14, trieEnd: 15, trieTerm: 16, topKeys: 17, topCounts: 20, topStarts: 21, topDocs: 22, topRanks: 23, codeKeys: 24, codes: 27,
} as const;
