// data/autocomplete.bin, made from the autocomplete's index (the browser's index.json) and the
// site's page size: the index as the server searches it, with the first page of the costliest
// single words answered by the searcher itself (query/autocomplete/prefix-tops.ts) and each
// object's codes for the broadest prefixes (prefix-codes.ts). Kept in the build cache under a key
// of its whole argument list (keptAutocompleteData), so a build whose directory and page size are
// unchanged reads it back instead of making it.
import { serialize } from 'node:v8';
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../../store/format/dist-paths.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { hashedAutocompleteFiles } from '../../store/write/hashed-files.ts';
import type { DirectoryJob } from '../directory/directory-job.ts';
import { cacheIdentity, sha256 } from '../cache/build-cache.ts';
import { CACHE_FILE_MOST, readSealed, writeSealed } from '../cache/cache-file.ts';

export function autocompleteData(indexJson: string, pageSize: number): Uint8Array {
  const index = decodeIndex(indexJson);
  return autocompleteFile(index, prefixTops(index, pageSize), prefixCodes(index));
}

const head = () => `AULAACDATA\n${cacheIdentity()}\n`;

/**
 * autocompleteData of `input`, read from the build cache file at `path` when it was kept there
 * for the same input, else made and kept (null: no cache). The key is the SHA-256 of the whole
 * argument list serialized, so an argument added to autocompleteData is in it without being
 * named here; the code that makes the file is in the file's head (cacheIdentity). File: head,
 * sealed (cache-file.ts writeSealed): key (32) | the file's bytes. A damaged or foreign file is a
 * miss; a failed write leaves none.
 */
export function keptAutocompleteData(path: string | null, ...input: Parameters<typeof autocompleteData>): Uint8Array {
  if (path === null) return autocompleteData(...input);
  const key = sha256(serialize(input));
  const kept = readSealed(path, head(), CACHE_FILE_MOST);
  if (kept !== null && kept.length >= key.length && kept.subarray(0, key.length).equals(key)) return kept.subarray(key.length);
  const made = autocompleteData(...input);
  writeSealed(path, head(), [key, made]);
  return made;
}

/**
 * The directory's files as a dist holds them, put in `files`: its job's autocomplete index and
 * module, data/autocomplete.bin made of the index, and the content-hashed twins of both (the
 * copies among them returned: compressed once); and MiniSearch's when asked for, awaited after
 * `between` (the build's clock starts its phase).
 */
export async function directoryDistFiles(job: DirectoryJob, pageSize: number, minisearch: boolean, files: DistFiles, between: () => Promise<void>): Promise<ReadonlyMap<string, string>> {
  for (const [rel, text] of Object.entries(await job.autocomplete)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
  const ac = (name: string) => files.get(`${AUTOCOMPLETE_DIR}/${name}`) as string;
  // the server's own index, made from the browser's
  files.set(AUTOCOMPLETE_DATA_FILE, keptAutocompleteData(job.keptData, ac(AUTOCOMPLETE_INDEX_FILE), pageSize));
  // content-hashed twins of the browser module and its index, cacheable as immutable
  const hashed = hashedAutocompleteFiles(ac(AUTOCOMPLETE_INDEX_FILE), ac(AUTOCOMPLETE_MODULE_FILE));
  for (const [name, text] of hashed.files) files.set(`${AUTOCOMPLETE_DIR}/${name}`, text);
  await between();
  if (minisearch) for (const [rel, text] of Object.entries(await job.minisearch)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
  return hashed.copies;
}

/** The bytes of the autocomplete files among `files`: with the event parts', the measure of what a dist compresses (Rendered.volume). */
export function autocompleteBytes(files: DistFiles): number {
  let bytes = 0;
  for (const [rel, c] of files) if (rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) bytes += typeof c === 'string' ? c.length : c.byteLength;
  return bytes;
}
