// dist/autocomplete/: the index and the browser module that searches it.
import type { DirectoryObject } from '../../model/types.ts';
import { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../format/dist-paths.ts';
import { buildIndexJson } from './index-builder.ts';
import { bundleStaticModule } from './browser-modules.ts';

/** Relative paths under dist/autocomplete/ → contents: the index and the browser module. */
export async function buildAutocompleteFiles(objects: DirectoryObject[]): Promise<Record<string, string>> {
  // esbuild bundles in its own process while this thread builds the index
  const bundled = bundleStaticModule();
  const index = buildIndexJson(objects);
  return { [AUTOCOMPLETE_INDEX_FILE]: index, [AUTOCOMPLETE_MODULE_FILE]: await bundled };
}
