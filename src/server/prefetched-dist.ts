// A reload's reads and checksums, made before its load: the load itself is synchronous (it parses
// the whole dist at once), so every file it would read and hash there is read here first, a chunk
// at a time (fs/promises, off this thread), each chunk hashed as it arrives: the event loop runs
// between chunks, each a short piece of work. (WebCrypto's digest hashes on libuv's pool, but
// first copies the whole file on this thread, a block as long as hashing it here.) The load then
// reads these bytes, and the checksum of each is the digest of those very bytes. The calendar is
// held by a descriptor of its own, which stays on the file that was checked: it is opened here,
// and the load's one whole read of it answered with the bytes read ahead from that very file (the
// same inode). What is not here (the event rows, checked on a thread of their own; a file the
// manifest does not list) the load reads and hashes itself.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_FILES, eventPartFiles, loadedFiles } from '../store/format/dist-paths.ts';
import { parseManifest, sha256Hex } from '../store/format/manifest.ts';
import { directorySource, type DistSource } from '../store/read/dist-source.ts';
import type { FileRows } from '../store/read/file-rows.ts';
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

/** The file's bytes, read a chunk at a time, their SHA-256, and which file they are. */
async function readHashed(path: string): Promise<{ bytes: Buffer; sha256: string; dev: number; ino: number }> {
  const file = await open(path, 'r');
  try {
    const { size, dev, ino } = await file.stat();
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
    return { bytes: at === size ? bytes : bytes.subarray(0, at), sha256: hash.digest('hex'), dev, ino };
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
      const read = await readHashed(join(dir, rel));
      files.set(rel, read.bytes);
      digests.set(read.bytes, read.sha256);
      return read;
    } catch {
      // (missing or unreadable: the load reads it again, and names the problem)
      return undefined;
    }
  };
  await readAhead('manifest.json');
  let loaded: string[] = [];
  try {
    const manifest = parseManifest(files.get('manifest.json')!.toString('utf8'), folder.where('manifest.json'));
    const rows = new Set(eventPartFiles(manifest));
    loaded = loadedFiles(manifest).filter((rel) => !rows.has(rel) && Object.hasOwn(manifest.files, rel));
  } catch {
    // a manifest that is missing or does not parse: the load refuses it by name
  }
  /** the calendar's descriptor, and the bytes read ahead from its file */
  let calendar: { file: FileRows; bytes: Buffer } | undefined;
  for (const rel of loaded) {
    if (rel !== DATA_FILES.calendar) {
      await readAhead(rel);
      continue;
    }
    let file: FileRows | undefined;
    try {
      file = folder.open!([rel]);
    } catch {
      continue;
    }
    const read = await readAhead(rel);
    files.delete(rel);
    const [opened] = file.identities();
    if (read && read.dev === opened.dev && read.ino === opened.ino && read.bytes.byteLength === file.byteLength) calendar = { file, bytes: read.bytes };
    else file.close();
  }
  const bytes = (rel: string): Buffer => {
    const read = files.get(rel);
    // taken once (the load reads each file once): what the load keeps of it is its own to keep
    files.delete(rel);
    if (read) return read;
    here.reads.push(rel);
    return folder.bytes(rel) as Buffer;
  };
  const openFiles = (rels: readonly string[]): FileRows => {
    const ahead = calendar;
    if (!ahead || rels.length !== 1 || rels[0] !== DATA_FILES.calendar) return folder.open!(rels);
    calendar = undefined;
    // its first whole read is the load's check: the bytes read ahead, from this very file
    const { file } = ahead;
    let first: Buffer | undefined = ahead.bytes;
    const readAll = file.readAll.bind(file);
    file.readAll = () => {
      const bytes = first ?? readAll();
      first = undefined;
      return bytes;
    };
    return file;
  };
  return {
    source: { ...folder, bytes, text: (rel) => bytes(rel).toString('utf8'), open: openFiles },
    sha256(content) {
      const known = digests.get(content);
      if (known !== undefined) return known;
      here.hashedBytes += content.byteLength;
      return sha256Hex(content);
    },
    here,
  };
}
