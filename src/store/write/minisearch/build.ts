// dist/autocomplete/minisearch.json and minisearch-options.js: the directory as a MiniSearch
// index, for front ends that already search with MiniSearch. Only `aula build` imports this.
import MiniSearch from 'minisearch';
import type { DirectoryObject } from '../../../model/types.ts';
import { memoized } from '../index-builder.ts';
import { browserModule } from '../browser-modules.ts';
import { miniSearchDocuments } from './documents.ts';
import { miniSearchOptions, processTerm } from './options.ts';

/** File names under dist/autocomplete/. */
export const MINISEARCH_INDEX_FILE = 'minisearch.json';
export const MINISEARCH_OPTIONS_FILE = 'minisearch-options.js';

/** Relative paths under dist/autocomplete/ → contents. */
export async function buildMiniSearchFiles(objects: readonly DirectoryObject[]): Promise<Record<string, string>> {
  // esbuild bundles in its own process while this thread indexes
  const bundled = browserModule('minisearchOptions');
  // the same processTerm, normalizing each distinct word once (directory words repeat a lot)
  const miniSearch = new MiniSearch({ ...miniSearchOptions, processTerm: memoized(processTerm) });
  miniSearch.addAll(miniSearchDocuments(objects));
  return { [MINISEARCH_INDEX_FILE]: JSON.stringify(miniSearch), [MINISEARCH_OPTIONS_FILE]: await bundled };
}
