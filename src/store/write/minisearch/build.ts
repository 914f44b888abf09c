// dist/autocomplete/minisearch.json and minisearch-options.js: the directory as a MiniSearch
// index, for front ends that already search with MiniSearch. Only `aula build` imports this.
import MiniSearch from 'minisearch';
import type { DirectoryObject } from '../../../model/types.ts';
import { listingOrder, memoized } from '../index-builder.ts';
import { browserModule } from '../browser-modules.ts';
import { eachMiniSearchDocument } from './documents.ts';
import { miniSearchOptions, processTerm, type MiniSearchDocument } from './options.ts';
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
  return miniSearchFiles(indexMiniSearch(objects, ordered));
}

/** The objects indexed, the options module being bundled: what miniSearchFiles() writes out. */
export interface MiniSearchIndexed {
  miniSearch: MiniSearch<MiniSearchDocument>;
  bundled: Promise<string>;
}

/**
 * The first half of buildMiniSearchFiles: the index holds all the files need of the objects, so
 * a caller can let go of them before the index is written out (the directory worker does).
 */
export function indexMiniSearch(objects: readonly DirectoryObject[], ordered?: readonly DirectoryObject[]): MiniSearchIndexed {
  // esbuild bundles in its own process while this thread indexes
  const bundled = browserModule('minisearchOptions');
  // (a build that fails before the files are asked for must not leave the bundle's rejection unheard)
  bundled.catch(() => {});
  // the same processTerm, normalizing each distinct word once (directory words repeat a lot)
  const miniSearch = new MiniSearch<MiniSearchDocument>({ ...miniSearchOptions, processTerm: memoized(processTerm) });
  const plain = termsLookedUpOnce(miniSearch);
  // (what addAll does with an array: each added in turn)
  for (const document of eachMiniSearchDocument(ordered ?? listingOrder(objects))) miniSearch.add(document);
  plain();
  return { miniSearch, bundled };
}

/** The part of MiniSearch 7 indexing goes through for every term it adds (private in its typings). */
interface TermIndex {
  fetch(term: string, initial: () => unknown): unknown;
}

/**
 * MiniSearch finds a term's postings by walking its radix tree at each of the term's occurrences
 * (comparing the term with the edges of every node on its way). While documents are only added,
 * a term's postings stay the same object wherever later terms split the tree, so each term walks
 * the tree once, at its first occurrence, and is found by a Map after that: the tree is built by
 * the same first occurrences in the same order, and writes the same bytes. Returns what puts
 * MiniSearch's own lookup back (a later discard or search must walk the tree as it is).
 */
export function termsLookedUpOnce(miniSearch: MiniSearch<MiniSearchDocument>): () => void {
  const index = (miniSearch as unknown as { _index?: Partial<TermIndex> })._index;
  const walk = index?.fetch;
  if (index === undefined || typeof walk !== 'function' || Object.hasOwn(index, 'fetch')) return () => {};
  const found = new Map<string, unknown>();
  index.fetch = function fetch(term, initial) {
    let postings = found.get(term);
    if (postings === undefined) found.set(term, (postings = walk.call(this, term, initial)));
    return postings;
  };
  return () => {
    delete index.fetch;
  };
}

/** The second half: the index written out, with the options module. */
export async function miniSearchFiles(indexed: MiniSearchIndexed): Promise<MiniSearchFiles> {
  return { [MINISEARCH_INDEX_FILE]: miniSearchJson(indexed.miniSearch), [MINISEARCH_OPTIONS_FILE]: await indexed.bundled };
}
