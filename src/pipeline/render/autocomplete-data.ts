// data/autocomplete.bin, made from the autocomplete's index (the browser's index.json) and the
// site's page size: the index as the server searches it, with the first page of the costliest
// single words answered by the searcher itself (query/autocomplete/prefix-tops.ts) and each
// object's codes for the broadest prefixes (prefix-codes.ts). Made where the directory's files are
// made; over the prior, where the directory did not change, the previous dist's stands.
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { runOnThread, threadModule } from '../../util/start-thread.ts';

export function autocompleteData(indexJson: string, pageSize: number): Uint8Array {
  const index = decodeIndex(indexJson);
  return autocompleteFile(index, prefixTops(index, pageSize), prefixCodes(index));
}

/** index.json's length from which its data is made on a thread: below, the thread's start costs more. */
const BESIDE_FROM = 1 << 20;

/**
 * autocompleteData on a thread of its own, this module (answer), while this one goes on: asked for
 * once the render's rows are let go of, what making it holds (the decoded index, tops and codes)
 * is no part of the peak: the thread's heap, given back as it ends.
 */
export function autocompleteDataBeside(index: string, pageSize: number, besideFrom = BESIDE_FROM): Promise<Uint8Array> {
  if (index.length < besideFrom) return Promise.resolve(autocompleteData(index, pageSize));
  return runOnThread<Uint8Array>(threadModule(import.meta.url, 'autocomplete-data'), { index, pageSize }, "the autocomplete data's thread stopped");
}

/** The thread's answer: the file on a buffer of its own (a view of a larger one is copied), to be transferred. */
export function answer({ index, pageSize }: { index: string; pageSize: number }): Uint8Array {
  const bytes = autocompleteData(index, pageSize);
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

export const transfer = (answer: Uint8Array): ArrayBuffer[] => [answer.buffer as ArrayBuffer];
