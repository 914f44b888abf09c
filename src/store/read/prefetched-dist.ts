// A reload's reads and checksums, made before its load: the load itself is synchronous (it parses
// the whole dist at once), so every file it would read and hash there is read here first, a chunk
// at a time (fs/promises, off this thread), each chunk hashed as it arrives: the event loop runs
// between chunks, each a short piece of work. (WebCrypto's digest hashes on libuv's pool, but
// first copies the whole file on this thread, a block as long as hashing it here.) The load then
// reads these bytes, and the checksum of each is the digest of those very bytes. The calendar is
// held by a descriptor of its own, which stays on the file that was checked: it is opened here and
// read ahead through that descriptor (FileRows.readAhead), and the load takes that open file, whose
// first whole read returns the bytes read ahead. A file whose size is not the manifest's is not
// read ahead: the load names its size. What is not here (the event rows, checked on a thread of
// their own; a file the manifest does not list) the load reads and hashes itself.
import { createHash } from 'node:crypto';
import { DATA_FILES, eventPartFiles, loadedFiles } from '../format/dist-paths.ts';
import { parseManifest, sha256Hex, type Manifest } from '../format/manifest.ts';
import { directorySource, type DistSource } from './dist-source.ts';
import type { FileRows } from './file-rows.ts';
import type { Sha256 } from './verified-source.ts';

export interface PrefetchedDist {
  /** dist/ as the load reads it: the files read ahead from memory, any other from the folder */
  source: DistSource;
  /** the digest computed ahead for bytes read ahead, else computed now */
  sha256: Sha256;
  /** what the load still read and hashed on this thread (tests) */
  readonly here: { reads: string[]; hashedBytes: number };
  /** closes what the load did not take (the calendar's descriptor, when a load failed before it) */
  release(): void;
}

/** Reads ahead the files of `dir` its manifest lists and a load reads whole. Never rejects: a problem is the load's to name. */
export async function prefetchDist(dir: string): Promise<PrefetchedDist> {
  const folder = directorySource(dir);
  const files = new Map<string, Buffer>();
  const digests = new WeakMap<Uint8Array, string>();
  const here = { reads: [] as string[], hashedBytes: 0 };
  let sizes: Manifest['files'] = {};
  /** `rel` opened and read ahead, its digest known; none when missing, unreadable or not of the manifest's size (the load names it) */
  const readAhead = async (rel: string, size?: number): Promise<FileRows | undefined> => {
    let file: FileRows | undefined;
    try {
      file = folder.open!([rel]);
      if (size !== undefined && file.byteLength !== size) throw new Error('another size');
      const hash = createHash('sha256');
      digests.set(await file.readAhead((chunk) => hash.update(chunk)), hash.digest('hex'));
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
  keep('manifest.json', await readAhead('manifest.json'));
  let loaded: string[] = [];
  try {
    const manifest = parseManifest(files.get('manifest.json')!.toString('utf8'), folder.where('manifest.json'));
    const rows = new Set(eventPartFiles(manifest));
    sizes = manifest.files;
    loaded = loadedFiles(manifest).filter((rel) => !rows.has(rel) && Object.hasOwn(manifest.files, rel));
  } catch {
    // a manifest that is missing or does not parse: the load refuses it by name
  }
  /** the calendar's descriptor, its bytes read ahead through it, until the load takes it */
  let calendar: FileRows | undefined;
  for (const rel of loaded) {
    const file = await readAhead(rel, sizes[rel].bytes);
    if (rel === DATA_FILES.calendar) calendar = file;
    else keep(rel, file);
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
    // the load's, to close with its data: its first whole read is the bytes read ahead
    calendar = undefined;
    return ahead;
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
    release() {
      calendar?.close();
      calendar = undefined;
    },
  };
}
