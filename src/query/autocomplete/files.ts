// The autocomplete files as the server reads them: their names and the searcher over them. Apart
// from index.ts (which bundles the browser module with esbuild), so the edge worker can load it.
import { createAutocomplete, type Autocomplete } from './searcher.ts';

/** File names under dist/autocomplete/. */
export const AUTOCOMPLETE_INDEX_FILE = 'index.json';
export const AUTOCOMPLETE_MODULE_FILE = 'autocomplete.js';

/** The server-side searcher, from a reader of dist/autocomplete/<relPath>. No re-indexing. */
export function loadAutocompleteFromFiles(readFile: (relPath: string) => string): Autocomplete {
  return createAutocomplete(readFile(AUTOCOMPLETE_INDEX_FILE));
}
