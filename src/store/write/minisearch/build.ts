// dist/autocomplete/minisearch.json and minisearch-options.js: the directory as a MiniSearch
// index, for front ends that already search with MiniSearch. Only `aula build` imports this.
import type { DirectoryObject } from '../../../model/types.ts';
import { listingOrder } from '../index-builder.ts';
import { browserModule } from '../browser-modules.ts';
import { miniSearchDocument } from './documents.ts';
import { miniSearchJson } from './index-json.ts';

/** File names under dist/autocomplete/. */
export const MINISEARCH_INDEX_FILE = 'minisearch.json';
export const MINISEARCH_OPTIONS_FILE = 'minisearch-options.js';

/** The files by name under dist/autocomplete/: the index as UTF-8 (index-json.ts), the options module as text. */
export type MiniSearchFiles = {
  [MINISEARCH_INDEX_FILE]: Buffer;
  [MINISEARCH_OPTIONS_FILE]: string;
};

/** Relative paths under dist/autocomplete/ → contents. `ordered`: the objects in listing order, when known. */
export async function buildMiniSearchFiles(objects: readonly DirectoryObject[], ordered?: readonly DirectoryObject[]): Promise<MiniSearchFiles> {
  return miniSearchFiles(indexMiniSearch(objects, ordered));
}

/** The index written, the options module being bundled: what miniSearchFiles() gives. */
export interface MiniSearchIndexed {
  json: Buffer;
  bundled: Promise<string>;
}

/**
 * The first half of buildMiniSearchFiles: the index is written out in full, so a caller can let
 * go of the objects before the options module is ready (the directory worker does).
 */
export function indexMiniSearch(objects: readonly DirectoryObject[], ordered?: readonly DirectoryObject[]): MiniSearchIndexed {
  // esbuild bundles in its own process while this thread indexes
  const bundled = browserModule('minisearchOptions');
  // (a build that fails before the files are asked for must not leave the bundle's rejection unheard)
  bundled.catch(() => {});
  return { json: miniSearchJson(ordered ?? listingOrder(objects), miniSearchDocument), bundled };
}

/** The second half: the index, with the options module. */
export async function miniSearchFiles(indexed: MiniSearchIndexed): Promise<MiniSearchFiles> {
  return { [MINISEARCH_INDEX_FILE]: indexed.json, [MINISEARCH_OPTIONS_FILE]: await indexed.bundled };
}
