// The directory job's thread module (directory-job.ts), each thread answering once, and the
// scratch file its answers wait in. `make`: makes the files, each index's written to the job's
// scratch file as soon as it is made, described by a small layout posted with the answer (what
// cannot be written there is answered as it is). No serialization of the whole is made: it would be
// as large as the indexes in the worker, and again in the build's thread when read back.
// `compress`: the large files' twins, on a thread of their own once the first one's heap is gone:
// each read from the scratch file, its twins written there after everything else.
import type { DirectoryObject } from '../../model/types.ts';
import { compressTwins, LARGE_FILE_LEVELS, type Precompressed } from '../../deploy/precompress.ts';
import type { DirectoryFiles, DirectoryRequest, DirectorySource, Group, PutGroup } from './directory-make.ts';
import { readAllAt, writeAllAt } from '../../util/positional-io.ts';
import { append } from '../../util/append.ts';

/** What the directory's files are made into (directory-make.ts), as the build takes them. */
export interface DirectoryMade {
  autocomplete: DirectoryFiles | null;
  minisearch: DirectoryFiles | null;
  /** by name under dist/autocomplete/ */
  compressed: Record<string, Precompressed>;
}

/** Where each file is in the scratch file. */
export interface MadeLayout {
  /** the groups written there */
  groups: Group[];
  /**
   * each file of those groups: text kept as UTF-16, as the string it was (`utf16le`), or as UTF-8
   * for a large one that UTF-8 gives back as it was; bytes (null)
   */
  files: ({ group: Group; name: string; encoding: 'utf16le' | 'utf8' | null } & Run)[];
  /** each compressed file: its levels and where its twins are; its content is the file of that name */
  twins: { name: string; gzip: number; brotli: number; gz: Run; br: Run }[];
}

/** Where bytes are in the scratch file. */
type Run = { at: number; length: number };

/**
 * Writes each group put to the scratch file `fd` (from its start), noting where in `layout`. What
 * cannot be written (a full temp folder) is held in `rest` from then on, and posted as it is.
 */
export class MadeWriter {
  readonly layout: MadeLayout = { groups: [], files: [], twins: [] };
  readonly rest: DirectoryMade = { autocomplete: null, minisearch: null, compressed: {} };
  private at = 0;
  private failed = false;

  constructor(private readonly fd: number | null) {}

  readonly put: PutGroup = (group, files, twins) => {
    if (this.fd !== null && !this.failed) {
      try {
        this.write(this.fd, group, files, twins);
        return;
      } catch {
        this.failed = true;
      }
    }
    this.rest[group] = files;
    Object.assign(this.rest.compressed, twins);
  };

  private write(fd: number, group: Group, files: DirectoryFiles, twins: Record<string, Precompressed>): void {
    // noted only once all of the group is written: a failure part way leaves it out of the layout
    const { put, end } = appender(fd, this.at);
    const written = Object.entries(files).map(([name, content]): MadeLayout['files'][number] => {
      // UTF-16 gives back any string as it was (UTF-8 would not a lone surrogate); a large one
      // without any is kept as UTF-8: half the bytes, and the bytes it is compressed from later
      if (typeof content !== 'string') return { group, name, encoding: null, ...put(content) };
      const encoding = content.length > UTF8_FROM && content.isWellFormed() ? 'utf8' : 'utf16le';
      return { group, name, encoding, ...put(Buffer.from(content, encoding)) };
    });
    const appended = appendTwins(fd, end(), twins);
    this.at = appended.end;
    this.layout.groups.push(group);
    append(this.layout.files, written);
    append(this.layout.twins, appended.entries);
  }

  /** Whether what is put goes to the scratch file (not held): its files can be read back there. */
  get writing(): boolean {
    return this.fd !== null && !this.failed;
  }

  /** Where the next bytes go in the scratch file. */
  get end(): number {
    return this.at;
  }
}

/** A layout's file, read from the scratch file `fd` as it was put: text as UTF-8 bytes when kept so, else as the string. */
export function fileContent(fd: number, file: MadeLayout['files'][number]): string | Uint8Array {
  const bytes = take(fd, file);
  return file.encoding === 'utf16le' ? bytes.toString('utf16le') : bytes;
}

/** Writes `twins` to the scratch file `fd` from `at`: their entries of a layout, and where they end. */
export function appendTwins(fd: number, at: number, twins: Record<string, Precompressed>): { entries: MadeLayout['twins']; end: number } {
  const { put, end } = appender(fd, at);
  const entries = Object.entries(twins).map(([name, made]) => ({ name, gzip: made.gzip, brotli: made.brotli, gz: put(made.gz), br: put(made.br) }));
  return { entries, end: end() };
}

/** Writes byte runs one after another into `fd` from `at`: where each went, and where they end. */
function appender(fd: number, at: number): { put: (bytes: Uint8Array) => Run; end: () => number } {
  return {
    put: (bytes) => {
      writeAllAt(fd, bytes, at);
      at += bytes.byteLength;
      return { at: at - bytes.byteLength, length: bytes.byteLength };
    },
    end: () => at,
  };
}

/** Text files longer than this (UTF-16 units) are kept as UTF-8 when they can be. */
const UTF8_FROM = 1 << 20;

/** What a MadeWriter wrote to `fd` (this layout) and held (`rest`), together. */
export function readMade(fd: number | null, layout: MadeLayout, rest: DirectoryMade): DirectoryMade {
  const made: DirectoryMade = { autocomplete: rest.autocomplete, minisearch: rest.minisearch, compressed: { ...rest.compressed } };
  for (const group of layout.groups) made[group] = {};
  for (const file of layout.files) {
    const bytes = take(fd, file);
    made[file.group]![file.name] = file.encoding === null ? bytes : bytes.toString(file.encoding);
  }
  return readTwins(fd, layout.twins, made);
}

/** `made` with the twins of its files whose layout entries are `twins`, read from the scratch file `fd`. */
export function readTwins(fd: number | null, twins: MadeLayout['twins'], made: DirectoryMade): DirectoryMade {
  for (const { name, gzip, brotli, gz, br } of twins) {
    const content = made.autocomplete?.[name] ?? made.minisearch?.[name];
    if (content === undefined) throw new Error(`the directory's scratch file has twins of ${name} but not the file`);
    made.compressed[name] = { content, gzip, brotli, gz: take(fd, gz), br: take(fd, br) } satisfies Precompressed;
  }
  return made;
}

/** `length` bytes from `at` of the scratch file `fd` (null: gone, though something is in it). */
function take(fd: number | null, { at, length }: Run): Buffer {
  if (fd === null) throw new Error("the directory's files are in a scratch file that is gone");
  const bytes = Buffer.allocUnsafe(length);
  readAllAt(fd, bytes, 0, length, at);
  return bytes;
}

/**
 * What `make` answers: where what it made is in the scratch file (MadeLayout), what it
 * could not write there, the large files it left to `compress` there, and where the file's bytes end.
 */
export type WorkerAnswer = { layout: MadeLayout; rest: DirectoryMade; deferred: string[]; end: number };

export type DirectoryMessage =
  | { make: { objects: readonly DirectoryObject[] | null; request: DirectoryRequest; scratch: number | null } }
  | { compress: { fd: number; files: MadeLayout['files']; at: number } };

export async function answer(message: DirectoryMessage): Promise<WorkerAnswer | MadeLayout['twins']> {
  if ('compress' in message) return compress(message.compress);
  const { make } = message;
  // loaded here, not above: a thread that compresses needs none of the indexing code
  const { makeDirectoryFiles } = await import('./directory-make.ts');
  // the objects are handed over, not kept here: makeDirectoryFiles lets go of them once indexed
  const source: DirectorySource = { objects: make.objects };
  make.objects = null;
  const writer = new MadeWriter(make.scratch);
  // The large files are compressed later (`compress`): while the events are parsed both cores are
  // busy. Only when they wait in the scratch file: held, they would be answered whole first.
  const deferred: string[] | undefined = writer.writing ? [] : undefined;
  await makeDirectoryFiles(source, make.request, writer.put, deferred);
  return { layout: writer.layout, rest: writer.rest, deferred: deferred ?? [], end: writer.end };
}

function compress({ fd, files, at }: { fd: number; files: MadeLayout['files']; at: number }): MadeLayout['twins'] {
  // each file's twins written as they are made: never two files' at once
  return files.flatMap((file) => {
    const appended = appendTwins(fd, at, { [file.name]: compressTwins(fileContent(fd, file), LARGE_FILE_LEVELS) });
    at = appended.end;
    return appended.entries;
  });
}
