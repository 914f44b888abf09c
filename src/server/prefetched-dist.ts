// A reload's reads and checksums, made before its load: the load itself is synchronous (it parses
// the whole dist at once), so every file it would read and hash there is read here first, a chunk
// at a time (fs/promises, off this thread), each chunk hashed as it arrives: the event loop runs
// between chunks, each a short piece of work. (WebCrypto's digest hashes on libuv's pool, but
// first copies the whole file on this thread, a block as long as hashing it here.) The load then
// reads these bytes, and the checksum of each is the
// digest of those very bytes. What is not here (the event rows and the calendar, read through
// descriptors of their own; a file the manifest does not list) the load reads and hashes itself.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_FILES, eventPartFiles, loadedFiles } from '../store/format/dist-paths.ts';
import { parseManifest, sha256Hex } from '../store/format/manifest.ts';
import { directorySource, type DistSource } from '../store/read/dist-source.ts';
import type { Sha256 } from '../store/read/verified-source.ts';

export interface PrefetchedDist {
  /** dist/ as the load reads it: the files read ahead from memory, any other from the folder */
  source: DistSource;
  /** the digest computed ahead for bytes read ahead, else computed now */
  sha256: Sha256;
  /** what the load still read and hashed on this thread (tests) */
  readonly here: { reads: string[]; hashedBytes: number };
}

const CHUNK = 1024 * 1024;

/** The file's bytes, read a chunk at a time, and their SHA-256. */
async function readHashed(path: string): Promise<{ bytes: Buffer; sha256: string }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const bytes = Buffer.allocUnsafe(size);
    const hash = createHash('sha256');
    let at = 0;
    while (at < size) {
      const { bytesRead } = await file.read(bytes, at, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      hash.update(bytes.subarray(at, at + bytesRead));
      at += bytesRead;
    }
    // (a file cut short while read: the bytes that were read, which the load refuses by their size)
    return { bytes: at === size ? bytes : bytes.subarray(0, at), sha256: hash.digest('hex') };
  } finally {
    await file.close();
  }
}

/** Reads ahead the files of `dir` its manifest lists and a load reads whole. Never rejects: a problem is the load's to name. */
export async function prefetchDist(dir: string): Promise<PrefetchedDist> {
  const folder = directorySource(dir);
  const files = new Map<string, Buffer>();
  const digests = new WeakMap<Uint8Array, string>();
  const here = { reads: [] as string[], hashedBytes: 0 };
  const readAhead = async (rel: string) => {
    try {
      const { bytes, sha256 } = await readHashed(join(dir, rel));
      files.set(rel, bytes);
      digests.set(bytes, sha256);
    } catch {
      // (missing or unreadable: the load reads it again, and names the problem)
    }
  };
  await readAhead('manifest.json');
  let loaded: string[] = [];
  try {
    const manifest = parseManifest(files.get('manifest.json')!.toString('utf8'), folder.where('manifest.json'));
    const throughDescriptors = new Set([...eventPartFiles(manifest), DATA_FILES.calendar]);
    loaded = loadedFiles(manifest).filter((rel) => !throughDescriptors.has(rel) && Object.hasOwn(manifest.files, rel));
  } catch {
    // a manifest that is missing or does not parse: the load refuses it by name
  }
  for (const rel of loaded) await readAhead(rel);
  const bytes = (rel: string): Buffer => {
    const read = files.get(rel);
    // taken once (the load reads each file once): what the load keeps of it is its own to keep
    files.delete(rel);
    if (read) return read;
    here.reads.push(rel);
    return folder.bytes(rel) as Buffer;
  };
  return {
    source: { ...folder, bytes, text: (rel) => bytes(rel).toString('utf8') },
    sha256(content) {
      const known = digests.get(content);
      if (known !== undefined) return known;
      here.hashedBytes += content.byteLength;
      return sha256Hex(content);
    },
    here,
  };
}
