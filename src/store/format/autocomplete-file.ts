// data/autocomplete.bin: the autocomplete's index as the server searches it (IndexData,
// autocomplete-index.ts), every array ready to view in place, and the first results of the
// costliest single words (PrefixTops). Made by the build from the same index as
// autocomplete/index.json, which the browser module still loads and decodes (it has no tops).
//
//   0  header: objects, terms, postings, trie depth, page size of the tops, tops keys
//   1  the models, as JSON (DIRECTORY_MODELS when written: `model` values index into it)
//   2  model u8, 3 id f64 (per object, in listing order)
//   4–6 presentation (a string table), 7 level_id f64, 8 room_id f64 (NaN where null)
//   9–11 the terms, sorted (a string table)
//   12 postStart i32, 13 postings i32; 14 fwdStart i32, 15 forward i32
//   16 byModel i32 (each model's objects, model after model), 17 byModelStart u32
//   18 trie char u16, 19 trie end i32, 20 trie term i32 (term-trie.ts)
//   21–23 tops keys (a string table), 24 counts u32, 25 starts u32, 26 docs u32, 27 ranks u32
import type { Format } from './sections.ts';

export const AUTOCOMPLETE_FILE_FORMAT: Format = { magic: 'aula-acx', version: 1, sections: 28, what: 'an autocomplete index' };

export const AC = {
  header: 0, models: 1, model: 2, id: 3, presentation: 4, levelId: 7, roomId: 8, terms: 9,
  postStart: 12, postings: 13, fwdStart: 14, forward: 15, byModel: 16, byModelStart: 17,
  trieChar: 18, trieEnd: 19, trieTerm: 20, topKeys: 21, topCounts: 24, topStarts: 25, topDocs: 26, topRanks: 27,
} as const;
