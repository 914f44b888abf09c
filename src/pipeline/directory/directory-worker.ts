// The directory job's thread module (directory-job.ts), each thread answering once. `make`: the
// files made from the directory alone (dist/autocomplete/'s own index and module, MiniSearch's
// index and options), each written to the job's scratch file as soon as its index is made and
// answered as where it is there, so that no heap holds them until the build asks; one the file
// cannot take (there is none, or the temp folder is full) is answered as it is. The objects are
// let go of once MiniSearch has indexed them: the thread never holds the own index's text, the
// objects and MiniSearch's index together. `compress`: the large files' twins, read from the
// scratch file and written after everything in it.
import { fstatSync } from 'node:fs';
import type { DirectoryObject } from '../../model/types.ts';
import { compareDirectory } from '../../model/directory-order.ts';
import type { DirectoryParse } from '../../content/directory.ts';
import { parsedValues } from '../../content/parse-stream.ts';
import { compressTwins, LARGE_FILE_LEVELS, PRECOMPRESSED, sizeOf } from '../../deploy/precompress.ts';
import { TOP_LEVEL_LIMIT } from '../../server/compress.ts';
import { readAllAt, writeAllAt } from '../../util/positional-io.ts';

/** By name under dist/autocomplete/: text, or UTF-8 (minisearch.json, index-json.ts) */
export type DirectoryFiles = Record<string, string | Uint8Array>;
export type Group = 'autocomplete' | 'minisearch';
/** Bytes in the scratch file: text kept as UTF-8 (`encoding`), or bytes (null). */
export type Run = { at: number; length: number; encoding: 'utf8' | null };
/** A file made; `large`: its twins' levels are fixed (LARGE_FILE_LEVELS), whatever the rest of the dist. */
export type MadeFile = { group: Group; name: string; large: boolean } & ({ content: string | Uint8Array } | { run: Run });
export type Stored = MadeFile & { run: Run };
/** A large file's twins in the scratch file, and the levels they were made at. */
export type MadeTwins = { name: string; gzip: number; brotli: number; gz: Run; br: Run };
/** `objects` (in list order, or parses the thread reads and sorts) are taken (set to null): the thread lets go of them once indexed. */
export type MakeRequest = { objects: readonly DirectoryObject[] | Pick<DirectoryParse, 'parses'> | null; minisearch: boolean; fd: number | null };
export type DirectoryMessage = { make: MakeRequest } | { compress: { fd: number; files: Stored[] } };

export function answer(message: DirectoryMessage): Promise<MadeFile[]> | MadeTwins[] {
  if ('make' in message) return make(message.make);
  const { fd, files } = message.compress;
  const put = (bytes: Uint8Array): Run => write(fd, bytes, fstatSync(fd).size, null);
  // each file's twins written as they are made: never two files' at once
  return files.map(({ name, run }) => {
    const { gzip, brotli, gz, br } = compressTwins(readRun(fd, run, false), LARGE_FILE_LEVELS);
    return { name, gzip, brotli, gz: put(gz), br: put(br) };
  });
}

export async function make(request: MakeRequest): Promise<MadeFile[]> {
  // loaded here, not above: a thread that compresses needs none of the indexing code
  const { buildAutocompleteFiles } = await import('../../store/write/autocomplete-files.ts');
  const { listingOrder } = await import('../../store/write/index-builder.ts');
  let objects = request.objects ?? [];
  request.objects = null;
  // (read from the parses, the objects are all that holds them: their bytes are let go)
  if ('parses' in objects) objects = (parsedValues(objects.parses) as DirectoryObject[]).sort(compareDirectory);
  const made: MadeFile[] = [];
  let at = 0;
  const put = (group: Group, files: DirectoryFiles) => {
    for (const [name, content] of Object.entries(files)) {
      const file = { group, name, large: PRECOMPRESSED.test(name) && sizeOf(content) > TOP_LEVEL_LIMIT };
      const encoding = typeof content === 'string' ? 'utf8' : null;
      // UTF-8 gives back only a string without a lone surrogate as it was: another is answered as it is
      if (encoding !== null && !(content as string).isWellFormed()) {
        made.push({ ...file, content });
        continue;
      }
      try {
        const run = write(request.fd, encoding === null ? (content as Uint8Array) : Buffer.from(content as string, encoding), at, encoding);
        at += run.length;
        made.push({ ...file, run });
      } catch {
        made.push({ ...file, content });
      }
    }
  };
  // one sort for both indexes: listing order is a third of the own index's time
  let ordered: DirectoryObject[] | null = listingOrder(objects);
  put('autocomplete', await buildAutocompleteFiles(objects, ordered));
  if (!request.minisearch) return made;
  // imported only here: neither the server nor a build without it loads minisearch
  const { indexMiniSearch, miniSearchFiles } = await import('../../store/write/minisearch/build.ts');
  let indexed: ReturnType<typeof indexMiniSearch> | null = indexMiniSearch(objects, ordered);
  // the index holds all the files need of the objects
  objects = [];
  ordered = null;
  const files = await miniSearchFiles(indexed);
  indexed = null;
  put('minisearch', files);
  return made;
}

function write(fd: number | null, bytes: Uint8Array, at: number, encoding: Run['encoding']): Run {
  if (fd === null) throw new Error('no scratch file');
  writeAllAt(fd, bytes, at);
  return { at, length: bytes.byteLength, encoding };
}

/** A run of the scratch file `fd` as it was put (`text`: UTF-8 as a string too, else as its bytes). */
export function readRun(fd: number, { at, length, encoding }: Run, text = true): string | Buffer {
  const bytes = Buffer.allocUnsafe(length);
  readAllAt(fd, bytes, 0, length, at);
  return encoding !== null && text ? bytes.toString(encoding) : bytes;
}
