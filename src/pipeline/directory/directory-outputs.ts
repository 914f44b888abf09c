// The files made from the directory alone (autocomplete/*, MiniSearch) are kept in the build cache
// under a key of the directory files' paths and texts (BuildCache.inputsKey): the directory
// objects are a function of those alone, so an edit to events, categories or site.yaml — the
// common case — costs no directory indexing at all.
//
// File: AULADIR\n <identity>\n, sealed (cache-file.ts writeSealed): key (32) | the head's length
// (u32 LE) | the head: v8.serialize of the files, each file of bytes as its length | those files'
// bytes, in the head's order. The bytes are written as they are: a copy of minisearch.json inside
// one serialized value would be held beside it where the directory's thread is largest.
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

const isFiles = (v: unknown): v is DirectoryFiles =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string' || s instanceof Uint8Array);

/** The files kept at `path` when they were made of the directory `key` stands for, else null. */
export function readStored(path: string, key: Buffer): DirectoryFiles | null {
  try {
    const payload = readSealed(path, head(), CACHE_FILE_MOST);
    if (payload === null || payload.length < key.length + 4 || !payload.subarray(0, key.length).equals(key)) return null;
    const headEnd = key.length + 4 + payload.readUInt32LE(key.length);
    if (headEnd > payload.length) return null;
    const value: unknown = deserialize(payload.subarray(key.length + 4, headEnd));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const files: DirectoryFiles = {};
    let at = headEnd;
    for (const [name, v] of Object.entries(value)) {
      if (typeof v !== 'number') files[name] = v;
      else if (Number.isInteger(v) && v >= 0 && at + v <= payload.length) {
        files[name] = new Uint8Array(payload.buffer, payload.byteOffset + at, v);
        at += v;
      } else return null;
    }
    return at === payload.length && isFiles(files) ? files : null;
  } catch {
    return null;
  }
}

/** Keeps `files` at `path` under `key`; a failed write leaves no file (the next build makes them again). */
export function store(path: string, key: Buffer, files: DirectoryFiles): void {
  const bytes = Object.values(files).filter((c): c is Uint8Array => typeof c !== 'string');
  const heads = serialize(Object.fromEntries(Object.entries(files).map(([name, c]) => [name, typeof c === 'string' ? c : c.byteLength])));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(heads.length);
  writeSealed(path, head(), [key, length, heads, ...bytes]);
}
