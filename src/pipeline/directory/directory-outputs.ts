// The files made from the directory alone (autocomplete/*, MiniSearch) are kept in the build cache
// under a key of the directory files' paths and texts (BuildCache.inputsKey): the directory
// objects are a function of those alone, so an edit to events, categories or site.yaml — the
// common case — costs no directory indexing at all.
//
// File: AULADIR\n <identity>\n key (32) | SHA-256 of the payload (32) | payload (v8.serialize)
// Anything that does not match — another aula, a damaged file — is a miss, never trusted.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { cacheIdentity, packPath } from '../cache/build-cache.ts';
import { writeAllAt } from '../../util/positional-io.ts';
import { CACHE_FILE_MOST, readCacheFile, replaceCacheFile } from '../cache/cache-file.ts';

/** Files by path, as the index builders return them. */
/** By name under dist/autocomplete/: text, or UTF-8 (minisearch.json, serialize.ts) */
export type DirectoryFiles = Record<string, string | Uint8Array>;

const MAGIC = Buffer.from('AULADIR\n');

/** Where the files of one index (`autocomplete`, `minisearch`) of one content folder are kept. */
export function outputsPath(cacheDir: string, content: string, index: string): string {
  const pack = packPath(cacheDir, content);
  return join(dirname(pack), pack.slice(dirname(pack).length + 1).replace(/^parsed-/, `${index}-`));
}


const isFiles = (v: unknown): v is DirectoryFiles =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string' || s instanceof Uint8Array);

/** The files kept at `path` when they were made of the directory `key` stands for, else null. */
export function readStored(path: string, key: Buffer): DirectoryFiles | null {
  try {
    const bytes = readCacheFile(path, CACHE_FILE_MOST);
    if (bytes === null) return null;
    const head = Buffer.concat([MAGIC, Buffer.from(`${cacheIdentity()}\n`)]);
    if (!bytes.subarray(0, head.length).equals(head)) return null;
    if (!bytes.subarray(head.length, head.length + 32).equals(key)) return null;
    const payload = bytes.subarray(head.length + 64);
    if (!createHash('sha256').update(payload).digest().equals(bytes.subarray(head.length + 32, head.length + 64))) return null;
    const value: unknown = deserialize(payload);
    return isFiles(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps `files` at `path` under `key`; a failed write leaves no file (the next build makes them again). */
export function store(path: string, key: Buffer, files: DirectoryFiles): void {
  const payload = serialize(files);
  // (the parts written one after the other: joined first, minisearch.json's payload would be copied once more)
  replaceCacheFile(path, (fd) => {
    let at = 0;
    for (const part of [MAGIC, Buffer.from(`${cacheIdentity()}\n`), key, createHash('sha256').update(payload).digest(), payload]) {
      writeAllAt(fd, part, at);
      at += part.byteLength;
    }
  });
}

/** `make()`'s files, or the stored ones when `key` (the directory) is the one they were made of. */
export async function directoryFiles(path: string | null, key: Buffer | null, make: () => Promise<DirectoryFiles>): Promise<DirectoryFiles> {
  if (path === null || key === null) return make();
  const stored = readStored(path, key);
  if (stored) return stored;
  const made = await make();
  store(path, key, made);
  return made;
}
