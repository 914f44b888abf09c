// The files made from the directory alone — dist/autocomplete/'s own index and module, and the
// MiniSearch index with its options — plus the compressed twins of the large ones. A pure
// function of its request, run on a worker thread by directory-job.ts (or in the caller's thread).
import type { DirectoryObject } from '../model/types.ts';
import { buildAutocompleteFiles } from '../store/write/autocomplete-files.ts';
import { listingOrder } from '../store/write/index-builder.ts';
import { compressionLevels, compressTwins, PRECOMPRESSED, sizeOf, type Precompressed } from '../deploy/precompress.ts';
import { TOP_LEVEL_LIMIT } from '../server/compress.ts';
import { store, type DirectoryFiles } from './directory-outputs.ts';
import { collectGarbage } from './collect-garbage.ts';

/**
 * Heap above which the garbage of one index is collected before the next is made: at 200,000
 * objects the worker's heap then peaked at ~310 instead of ~380 MB, while the build's own peak
 * (the parse threads and the events' records beside it) was being reached. Small builds skip it.
 */
const COLLECT_ABOVE = 64 << 20;

export interface DirectoryRequest {
  /** make autocomplete/'s own index and module */
  autocomplete: boolean;
  /** make minisearch.json and minisearch-options.js */
  minisearch: boolean;
  /** also compress the large files (their levels do not depend on the rest of the build) */
  compress: boolean;
  /** keep what is made in the build cache: the directory's key and a path per index */
  keep: { key: Buffer | Uint8Array; autocomplete: string | null; minisearch: string | null } | null;
}

export interface DirectoryMade {
  autocomplete: DirectoryFiles | null;
  minisearch: DirectoryFiles | null;
  /** by name under dist/autocomplete/ */
  compressed: Record<string, Precompressed>;
}

export async function makeDirectoryFiles(objects: readonly DirectoryObject[], request: DirectoryRequest): Promise<DirectoryMade> {
  // one sort for both indexes: listing order is a third of the own index's time
  const ordered = listingOrder(objects);
  const made: DirectoryMade = { autocomplete: null, minisearch: null, compressed: {} };
  if (request.autocomplete) {
    made.autocomplete = await buildAutocompleteFiles(objects, ordered);
    collectGarbage(COLLECT_ABOVE);
  }
  if (request.minisearch) {
    // imported only here: neither the server nor a build without it loads minisearch
    const { buildMiniSearchFiles } = await import('../store/write/minisearch/build.ts');
    made.minisearch = await buildMiniSearchFiles(objects, ordered);
    // (the index itself is garbage now: collected before the files are compressed and sent)
    collectGarbage(COLLECT_ABOVE);
  }
  const { keep } = request;
  if (keep) {
    const key = Buffer.from(keep.key.buffer, keep.key.byteOffset, keep.key.byteLength);
    if (made.autocomplete && keep.autocomplete) store(keep.autocomplete, key, made.autocomplete);
    if (made.minisearch && keep.minisearch) store(keep.minisearch, key, made.minisearch);
  }
  if (request.compress) {
    for (const [name, text] of [...Object.entries(made.autocomplete ?? {}), ...Object.entries(made.minisearch ?? {})]) {
      // above the limit the levels are fixed; below they depend on the build's whole volume
      if (!PRECOMPRESSED.test(name) || sizeOf(text) <= TOP_LEVEL_LIMIT) continue;
      made.compressed[name] = compressTwins(text, compressionLevels(sizeOf(text), Number.MAX_SAFE_INTEGER));
    }
  }
  return made;
}
