// data/autocomplete.bin: the browser's index as the server searches it, with the first pages
// (of the site's page size) of the costliest words (query/autocomplete/prefix-tops.ts) and the
// broadest prefixes' codes (prefix-codes.ts). Made and kept with the directory's files, by this name.
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';

export const SERVER_INDEX = 'autocomplete.bin';

export function autocompleteData(indexJson: string, pageSize: number): Uint8Array {
  const index = decodeIndex(indexJson);
  return autocompleteFile(index, prefixTops(index, pageSize), prefixCodes(index));
}
