// The thread module that makes data/autocomplete.bin (autocompleteData) for autocompleteDataBeside:
// the decoded index, tops and codes are this thread's heap, given back as it ends. The file is
// handed over on a buffer of its own (a view of a larger one is copied).
import { autocompleteData, type AutocompleteDataJob } from './autocomplete-data.ts';

export function answer({ index, pageSize }: AutocompleteDataJob): Uint8Array {
  const bytes = autocompleteData(index, pageSize);
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

export const transfer = (answer: Uint8Array): ArrayBuffer[] => [answer.buffer as ArrayBuffer];

export const once = true; // the thread ends after its answer, its heap with it (util/start-thread.ts)
