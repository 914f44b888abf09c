// Public API of the autocomplete (interface.md §4.3): build-time files and the server-side searcher.
import type { DirectoryObject } from '../model/types.ts';
import { buildIndexJson } from './build-index.ts';
import { bundleStaticModule } from './bundle.ts';
import { createAutocomplete, type Autocomplete } from './searcher.ts';

export type { Autocomplete, AutocompleteResult, SearchOptions } from './searcher.ts';
export { parseModels, type ParsedModels } from './models.ts';
export { renderSuggestion } from './suggestion.ts';

/** File names under dist/autocomplete/. */
export const AUTOCOMPLETE_INDEX_FILE = 'index.json';
export const AUTOCOMPLETE_MODULE_FILE = 'autocomplete.js';

/** Relative paths under dist/autocomplete/ → contents: the index and the browser module. */
export async function buildAutocompleteFiles(objects: DirectoryObject[]): Promise<Record<string, string>> {
  // esbuild bundles in its own process while this thread builds the index
  const bundled = bundleStaticModule();
  const index = buildIndexJson(objects);
  return { [AUTOCOMPLETE_INDEX_FILE]: index, [AUTOCOMPLETE_MODULE_FILE]: await bundled };
}

/**
 * The server-side searcher, from a reader of dist/autocomplete/<relPath>. No re-indexing.
 * (The browser module's `loadAutocomplete` takes the index text itself; see static-entry.ts.)
 */
export function loadAutocompleteFromFiles(readFile: (relPath: string) => string): Autocomplete {
  return createAutocomplete(readFile(AUTOCOMPLETE_INDEX_FILE));
}
