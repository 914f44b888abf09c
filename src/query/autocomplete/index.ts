// Public API of the autocomplete (interface.md §4.3): build-time files and the server-side searcher.
import type { DirectoryObject } from '../../model/types.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { bundleStaticModule } from '../../store/write/autocomplete-module.ts';

export type { Autocomplete, AutocompleteResult, SearchOptions } from './searcher.ts';
export { parseModels, type ParsedModels } from '../../model/directory-models.ts';
export { renderSuggestion } from './suggestion.ts';

import { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from './files.ts';

export { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE, loadAutocompleteFromFiles } from './files.ts';

/** Relative paths under dist/autocomplete/ → contents: the index and the browser module. */
export async function buildAutocompleteFiles(objects: DirectoryObject[]): Promise<Record<string, string>> {
  // esbuild bundles in its own process while this thread builds the index
  const bundled = bundleStaticModule();
  const index = buildIndexJson(objects);
  return { [AUTOCOMPLETE_INDEX_FILE]: index, [AUTOCOMPLETE_MODULE_FILE]: await bundled };
}
