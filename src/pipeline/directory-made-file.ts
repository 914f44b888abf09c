// What the directory worker made, as it waits in the job's scratch file (directory-job.ts): each
// index's files and their compressed twins are written there as soon as that index is made
// (MadeWriter), described by a small layout posted with the answer. Nothing is held until the end
// or copied into one serialization first: at 200,000 directory objects that was a ~110 MB buffer
// in the worker, and the same again in the build's thread when read back (the buffer, then the
// values deserialized from it).
import type { Precompressed } from '../deploy/precompress.ts';
import type { DirectoryFiles } from './directory-outputs.ts';
import { readAllAt, writeAllAt } from '../util/positional-io.ts';

export type Group = 'autocomplete' | 'minisearch';

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
  /** each file of those groups: text (kept as UTF-16, as the string it was) or bytes */
  files: { group: Group; name: string; text: boolean; at: number; length: number }[];
  /** each compressed file: its levels and where its twins are; its content is the file of that name */
  twins: { name: string; gzip: number; brotli: number; gz: [number, number]; br: [number, number] }[];
}

/** What a group's files are handed to as soon as they are made (directory-make.ts). */
export type PutGroup = (group: Group, files: DirectoryFiles, twins: Record<string, Precompressed>) => void;

/** Groups put into a DirectoryMade, held (a job on the build's own thread, or no scratch file). */
export function intoMade(made: DirectoryMade): PutGroup {
  return (group, files, twins) => {
    made[group] = files;
    Object.assign(made.compressed, twins);
  };
}

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
    intoMade(this.rest)(group, files, twins);
  };

  private write(fd: number, group: Group, files: DirectoryFiles, twins: Record<string, Precompressed>): void {
    // noted only once all of the group is written: a failure part way leaves it out of the layout
    const layout: MadeLayout = { groups: [group], files: [], twins: [] };
    let at = this.at;
    const put = (bytes: Uint8Array): [number, number] => {
      writeAllAt(fd, bytes, at);
      at += bytes.byteLength;
      return [at - bytes.byteLength, bytes.byteLength];
    };
    for (const [name, content] of Object.entries(files)) {
      const text = typeof content === 'string';
      // UTF-16 gives back any string as it was (UTF-8 would not a lone surrogate)
      const [start, length] = put(text ? Buffer.from(content, 'utf16le') : content);
      layout.files.push({ group, name, text, at: start, length });
    }
    for (const [name, made] of Object.entries(twins)) {
      layout.twins.push({ name, gzip: made.gzip, brotli: made.brotli, gz: put(made.gz), br: put(made.br) });
    }
    this.at = at;
    this.layout.groups.push(group);
    this.layout.files.push(...layout.files);
    this.layout.twins.push(...layout.twins);
  }
}

/** What a MadeWriter wrote to `fd` (this layout) and held (`rest`), together. */
export function readMade(fd: number | null, layout: MadeLayout, rest: DirectoryMade): DirectoryMade {
  const made: DirectoryMade = { autocomplete: rest.autocomplete, minisearch: rest.minisearch, compressed: { ...rest.compressed } };
  if (layout.files.length > 0 && fd === null) throw new Error("the directory's files are in a scratch file that is gone");
  for (const group of layout.groups) made[group] = {};
  const take = ([at, length]: [number, number]) => {
    const bytes = Buffer.allocUnsafe(length);
    readAllAt(fd!, bytes, 0, length, at);
    return bytes;
  };
  const byName = new Map<string, string | Uint8Array>();
  for (const group of [made.autocomplete, made.minisearch]) for (const [name, content] of Object.entries(group ?? {})) byName.set(name, content);
  for (const { group, name, text, at, length } of layout.files) {
    const bytes = take([at, length]);
    const content = text ? bytes.toString('utf16le') : bytes;
    made[group]![name] = content;
    byName.set(name, content);
  }
  for (const { name, gzip, brotli, gz, br } of layout.twins) {
    const content = byName.get(name);
    if (content === undefined) throw new Error(`the directory's scratch file has twins of ${name} but not the file`);
    made.compressed[name] = { content, gzip, brotli, gz: take(gz), br: take(br) } satisfies Precompressed;
  }
  return made;
}
