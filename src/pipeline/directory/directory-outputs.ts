// The files made from the directory alone (autocomplete/*, MiniSearch) are kept in the build cache
// under a key of the directory files' paths and texts (BuildCache.inputsKey): the directory
// objects are a function of those alone, so an edit to events, categories or site.yaml — the
// common case — costs no directory indexing at all.
//
// File: AULADIR\n <identity>\n, sealed (cache-file.ts writeSealed): key (32) | head length (u32 LE) | head: v8.serialize
// of the files, each of bytes as its length | their bytes as they are, in the head's order (minisearch.json copied into one
// serialized value would be held twice where the directory's thread is largest).
// Anything that does not match — another aula, a damaged file — is a miss, never trusted.
import { deserialize, serialize } from 'node:v8';
import { cacheFile, cacheIdentity } from '../cache/build-cache.ts';
import { CACHE_FILE_MOST, readSealed, writeSealed } from '../cache/cache-file.ts';

/** By name under dist/autocomplete/: text, or UTF-8 (minisearch.json, serialize.ts) */
export type DirectoryFiles = Record<string, string | Uint8Array>;

const head = () => `AULADIR\n${cacheIdentity()}\n`;

/** Where the files of one index (`autocomplete`, `minisearch`) of one content folder are kept. */
export const outputsPath = (cacheDir: string, content: string, index: 'autocomplete' | 'minisearch') => cacheFile(cacheDir, content, index, 'bin');

/** Where data/autocomplete.bin (render/autocomplete-data.ts) is kept, as { [its path]: bytes }. */
export const dataPath = (cacheDir: string, content: string) => cacheFile(cacheDir, content, 'autocomplete-data', 'bin');

const isFiles = (v: unknown): v is DirectoryFiles => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string' || s instanceof Uint8Array);

/** The files kept at `path` when they were made of the directory `key` stands for, else null. */
export function readStored(path: string, key: Buffer): DirectoryFiles | null {
  try {
    const payload = readSealed(path, head(), CACHE_FILE_MOST);
    if (payload === null || !payload.subarray(0, key.length).equals(key)) return null;
    let at = key.length + 4 + payload.readUInt32LE(key.length); // (a head or a length past the end throws: a miss)
    const files: DirectoryFiles = {};
    for (const [name, v] of Object.entries(deserialize(payload.subarray(key.length + 4, at)) as object)) {
      files[name] = typeof v === 'number' ? new Uint8Array(payload.buffer, payload.byteOffset + at, v) : v;
      if (typeof v === 'number') at += v;
    }
    return at === payload.length && isFiles(files) ? files : null;
  } catch {
    return null;
  }
}

/** Keeps `files` at `path` under `key`; a failed write leaves no file (the next build makes them again). */
export function store(path: string, key: Buffer, files: DirectoryFiles): void {
  const heads = serialize(Object.fromEntries(Object.entries(files).map(([name, c]) => [name, typeof c === 'string' ? c : c.byteLength])));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(heads.length);
  writeSealed(path, head(), [key, length, heads, ...Object.values(files).filter((c) => typeof c !== 'string')]);
}
