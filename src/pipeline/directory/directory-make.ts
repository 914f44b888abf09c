// The files made from the directory alone (dist/autocomplete/'s own index and module, MiniSearch's
// index and options) and the twins of the large ones: a pure function of its request, run on the
// directory job's thread. Each index is handed on as soon as it is made, and the objects let go of
// once MiniSearch has indexed them: the worker never holds the own index's text, the objects and
// MiniSearch's index together.
import type { DirectoryObject } from '../../model/types.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { listingOrder } from '../../store/write/index-builder.ts';
import { compressTwins, LARGE_FILE_LEVELS, PRECOMPRESSED, sizeOf, type Precompressed } from '../../deploy/precompress.ts';
import { TOP_LEVEL_LIMIT } from '../../server/compress.ts';

/** By name under dist/autocomplete/: text, or UTF-8 (minisearch.json, serialize.ts) */
export type DirectoryFiles = Record<string, string | Uint8Array>;

export type Group = 'autocomplete' | 'minisearch';

/** What a group's files are handed to as soon as they are made. */
export type PutGroup = (group: Group, files: DirectoryFiles, twins: Record<string, Precompressed>) => void;

/** autocomplete/'s own index and module are always made. */
export interface DirectoryRequest {
  /** make minisearch.json and minisearch-options.js */
  minisearch: boolean;
  /** also compress the large files (their levels do not depend on the rest of the build) */
  compress: boolean;
}

/** The directory's objects, taken (set to null) by makeDirectoryFiles: it lets go of them once indexed. */
export interface DirectorySource {
  objects: readonly DirectoryObject[] | null;
}

/**
 * Makes the files `request` asks for of the objects `source` holds, handing each group to `put`
 * once made. `deferred`: the large files are not compressed here but their names added to it, to
 * be compressed later (the directory worker: directory-job.ts).
 */
export async function makeDirectoryFiles(source: DirectorySource, request: DirectoryRequest, put: PutGroup, deferred?: string[]): Promise<void> {
  let objects = source.objects ?? [];
  source.objects = null;
  // one sort for both indexes: listing order is a third of the own index's time
  let ordered: DirectoryObject[] | null = listingOrder(objects);
  const done = (group: Group, files: DirectoryFiles) => {
    const twins: Record<string, Precompressed> = {};
    if (request.compress) {
      for (const [name, text] of Object.entries(files)) {
        // compressed here, ahead of the build's pool: a large file's levels are fixed, a smaller one's depend on the whole dist
        if (!PRECOMPRESSED.test(name) || sizeOf(text) <= TOP_LEVEL_LIMIT) continue;
        if (deferred) deferred.push(name);
        else twins[name] = compressTwins(text, LARGE_FILE_LEVELS);
      }
    }
    put(group, files, twins);
  };
  done('autocomplete', await buildAutocompleteFiles(objects, ordered));
  if (request.minisearch) {
    // imported only here: neither the server nor a build without it loads minisearch
    const { indexMiniSearch, miniSearchFiles } = await import('../../store/write/minisearch/build.ts');
    let indexed: ReturnType<typeof indexMiniSearch> | null = indexMiniSearch(objects, ordered);
    // the index holds all the files need of the objects
    objects = [];
    ordered = null;
    const files = await miniSearchFiles(indexed);
    indexed = null;
    done('minisearch', files);
  }
}
