// data/autocomplete.bin, made from the autocomplete's index (the browser's index.json) and the
// site's page size: the index as the server searches it, with the first page of the costliest
// single words answered by the searcher itself (query/autocomplete/prefix-tops.ts) and each
// object's codes for the broadest prefixes (prefix-codes.ts).
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';

export function autocompleteData(indexJson: string, pageSize: number): Uint8Array {
  const index = decodeIndex(indexJson);
  return autocompleteFile(index, prefixTops(index, pageSize), prefixCodes(index));
}
