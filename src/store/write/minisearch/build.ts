// dist/autocomplete/minisearch.json and minisearch-options.js: the directory as a MiniSearch
// index, for front ends that already search with MiniSearch. Only `aula build` imports this.
import MiniSearch from 'minisearch';
import type { DirectoryObject } from '../../../model/types.ts';
import { memoized } from '../index-builder.ts';
import { browserModule } from '../browser-modules.ts';
import { miniSearchDocuments } from './documents.ts';
import { miniSearchOptions, processTerm } from './options.ts';
import { miniSearchJson } from './serialize.ts';

/** File names under dist/autocomplete/. */
export const MINISEARCH_INDEX_FILE = 'minisearch.json';
export const MINISEARCH_OPTIONS_FILE = 'minisearch-options.js';

/** The files by name under dist/autocomplete/: the index as UTF-8 (serialize.ts), the options module as text. */
export type MiniSearchFiles = {
  [MINISEARCH_INDEX_FILE]: Buffer;
  [MINISEARCH_OPTIONS_FILE]: string;
};

/** Relative paths under dist/autocomplete/ → contents. `ordered`: the objects in listing order, when known. */
export async function buildMiniSearchFiles(objects: readonly DirectoryObject[], ordered?: readonly DirectoryObject[]): Promise<MiniSearchFiles> {
  // esbuild bundles in its own process while this thread indexes
  const bundled = browserModule('minisearchOptions');
  // the same processTerm, normalizing each distinct word once (directory words repeat a lot)
  const miniSearch = new MiniSearch({ ...miniSearchOptions, processTerm: memoized(processTerm) });
  miniSearch.addAll(miniSearchDocuments(objects, ordered));
  return { [MINISEARCH_INDEX_FILE]: miniSearchJson(miniSearch), [MINISEARCH_OPTIONS_FILE]: await bundled };
}
