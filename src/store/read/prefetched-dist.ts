// A reload's reads and checksums, made before its load: the load itself is synchronous (it parses
// the whole dist at once), so every file it would read and hash there is read here first, a chunk
// at a time (fs/promises, off this thread), each chunk hashed as it arrives: the event loop runs
// between chunks, each a short piece of work. (WebCrypto's digest hashes on libuv's pool, but
// first copies the whole file on this thread, a block as long as hashing it here.) The load then
// reads these bytes, and the checksum of each is the digest of those very bytes: the CRC-32 where
// the manifest lists one (FileDigest.crc32: the files are on this machine's disk), else the SHA-256. The calendar is
// held by descriptors of its own, which stay on the parts that were checked: they are opened here and
// read ahead through them (FileRows.readAhead), and the load takes that open file, whose
// first whole read returns the bytes read ahead. A file (or parts) whose size is not the manifest's is not
// read ahead: the load names its size. What is not here (the event rows, checked on a thread of
// their own; a file the manifest does not list) the load reads and hashes itself.
import { calendarPartFiles, eventPartFiles, loadedFiles } from '../format/dist-paths.ts';
import { crc32Hasher, crc32Hex, parseManifest, sha256Hasher, sha256Hex, type Manifest } from '../format/manifest.ts';
import { directorySource, type DistSource } from './dist-source.ts';
import type { FileRows } from './file-rows.ts';
import type { Crc32, Sha256 } from './verified-source.ts';

export interface PrefetchedDist {
  /** dist/ as the load reads it: the files read ahead from memory, any other from the folder */
  source: DistSource;
  /** the digest computed ahead for bytes read ahead, else computed now */
  sha256: Sha256;
  /** the same, of the CRC-32s (the load checks by them where the manifest lists them) */
  crc32: Crc32 | undefined;
  /** what the load still read and hashed on this thread (tests) */
  readonly here: { reads: string[]; hashedBytes: number };
  /** closes what the load did not take (the calendar's descriptor, when a load failed before it) */
  release(): void;
}

/** Reads ahead the files of `dir` its manifest lists and a load reads whole. Never rejects: a problem is the load's to name. */
export async function prefetchDist(dir: string): Promise<PrefetchedDist> {
  const folder = directorySource(dir);
  const files = new Map<string, Buffer>();
  /** the digests of bytes read ahead, by their buffer and where they are in it (a part's view made again finds its digest) */
  const digests = new WeakMap<ArrayBufferLike, Map<string, string>>();
  const crcs = new WeakMap<ArrayBufferLike, Map<string, string>>();
  const placeOf = (bytes: Uint8Array) => `${bytes.byteOffset}:${bytes.byteLength}`;
  const noteDigest = (bytes: Uint8Array, digest: string, byCrc: boolean) => {
    const kind = byCrc ? crcs : digests;
    let known = kind.get(bytes.buffer);
    if (known === undefined) kind.set(bytes.buffer, (known = new Map()));
    known.set(placeOf(bytes), digest);
  };
  const here = { reads: [] as string[], hashedBytes: 0 };
  let sizes: Manifest['files'] = {};
  /** `rels` opened as one and read ahead, each one's digest known; none when one is missing, unreadable or not of the manifest's size (the load names it) */
  const readAhead = async (rels: readonly string[], size?: (rel: string) => number): Promise<FileRows | undefined> => {
    let file: FileRows | undefined;
    try {
      file = folder.open!(rels);
      const ends: number[] = [];
      for (const rel of rels) ends.push((ends.at(-1) ?? 0) + (size ? size(rel) : 0));
      if (size !== undefined && file.byteLength !== ends.at(-1)) throw new Error('another size');
      // each part's digest as its chunks arrive (the parts are read in order, no chunk across two);
      // by CRC-32 where the manifest lists every part's (the manifest itself: by SHA-256)
      const byCrc = size !== undefined && crc32Hex !== undefined && rels.every((rel) => sizes[rel].crc32 !== undefined);
      const hasher = () => (byCrc ? crc32Hasher()! : sha256Hasher());
      const whole = byCrc ? crc32Hex! : sha256Hex;
      const found: string[] = [];
      let hash = hasher();
      let at = 0;
      const all = await file.readAhead((chunk) => {
        hash.update(chunk);
        at += chunk.byteLength;
        if (size !== undefined && at < ends[found.length]) return;
        found.push(hash.hex());
        hash = hasher();
      });
      if (size === undefined) noteDigest(all, found[0] ?? whole(all), byCrc);
      // (an empty part has no chunk: its digest is the empty one, and the parts' after it are made again)
      else rels.forEach((_, i) => noteDigest(file!.part(all, i), found.length === rels.length ? found[i] : whole(file!.part(all, i)), byCrc));
      return file;
    } catch {
      file?.close();
      return undefined;
    }
  };
  /** a file read ahead, its bytes kept and its descriptor closed */
  const keep = (rel: string, file: FileRows | undefined) => {
    if (!file) return;
    files.set(rel, file.readAll());
    file.close();
  };
  keep('manifest.json', await readAhead(['manifest.json']));
  let loaded: string[] = [];
  /** the calendar's parts: read ahead together, held by their descriptors until the load takes them */
  let calendarRels = new Set<string>();
  try {
    const manifest = parseManifest(files.get('manifest.json')!.toString('utf8'), folder.where('manifest.json'));
    const rows = new Set(eventPartFiles(manifest));
    sizes = manifest.files;
    calendarRels = new Set(calendarPartFiles(manifest));
    loaded = loadedFiles(manifest).filter((rel) => !rows.has(rel) && Object.hasOwn(manifest.files, rel));
  } catch {
    // a manifest that is missing or does not parse: the load refuses it by name
  }
  const size = (rel: string) => sizes[rel].bytes;
  for (const rel of loaded) if (!calendarRels.has(rel)) keep(rel, await readAhead([rel], size));
  // (all of its parts listed: else the load names the one missing)
  let calendar = calendarRels.size > 0 && [...calendarRels].every((rel) => Object.hasOwn(sizes, rel)) ? await readAhead([...calendarRels], size) : undefined;
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
    if (!ahead || rels.length !== calendarRels.size || rels.some((rel) => !calendarRels.has(rel))) return folder.open!(rels);
    // the load's, to close with its data: its first whole read is the bytes read ahead
    calendar = undefined;
    return ahead;
  };
  return {
    source: { ...folder, bytes, text: (rel) => bytes(rel).toString('utf8'), open: openFiles },
    sha256(content) {
      const known = digests.get(content.buffer)?.get(placeOf(content));
      if (known !== undefined) return known;
      here.hashedBytes += content.byteLength;
      return sha256Hex(content);
    },
    crc32:
      crc32Hex &&
      ((content) => {
        const known = crcs.get(content.buffer)?.get(placeOf(content));
        if (known !== undefined) return known;
        here.hashedBytes += content.byteLength;
        return crc32Hex!(content);
      }),
    here,
    release() {
      calendar?.close();
      calendar = undefined;
    },
  };
}

