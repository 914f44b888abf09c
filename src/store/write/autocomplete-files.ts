// dist/autocomplete/: the index and the browser module that searches it.
import type { DirectoryObject } from '../../model/types.ts';
import { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../format/dist-paths.ts';
import { buildIndexJson } from './index-builder.ts';
import { bundleStaticModule } from './browser-modules.ts';

/**
 * Relative paths under dist/autocomplete/ → contents: the index and the browser module.
 * `ordered`: the objects in listing order, when the caller has them already.
 */
export async function buildAutocompleteFiles(objects: readonly DirectoryObject[], ordered?: readonly DirectoryObject[]): Promise<Record<string, string>> {
  // esbuild bundles in its own process while this thread builds the index
  const bundled = bundleStaticModule();
  const index = buildIndexJson(objects, ordered);
  return { [AUTOCOMPLETE_INDEX_FILE]: index, [AUTOCOMPLETE_MODULE_FILE]: await bundled };
}
