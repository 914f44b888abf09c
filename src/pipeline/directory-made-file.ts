// What the directory worker made, as it waits in the job's scratch file (directory-job.ts): each
// file's bytes end to end, then each compressed twin's, described by a small layout posted with
// the answer. Nothing is copied into one serialization first: at 200,000 directory objects that
// was a ~110 MB buffer in the worker, and the same again in the build's thread when read back
// (the buffer, then the values deserialized from it).
import type { Precompressed } from '../deploy/precompress.ts';
import type { DirectoryMade } from './directory-make.ts';
import { readAllAt, writeAllAt } from './scratch-file.ts';

type Group = 'autocomplete' | 'minisearch';

/** Where each file is: in order from the start of the file. */
export interface MadeLayout {
  /** which groups were made (a group not asked for is null in DirectoryMade) */
  groups: Group[];
  /** each file of a group: text (kept as UTF-16, as the string it was) or bytes */
  files: { group: Group; name: string; text: boolean; length: number }[];
  /** each compressed file: its levels and twins' lengths; its content is the file of that name */
  twins: { name: string; gzip: number; brotli: number; gz: number; br: number }[];
}

const GROUPS: readonly Group[] = ['autocomplete', 'minisearch'];

/** Writes `made` from the start of `fd`; returns its layout. */
export function writeMade(fd: number, made: DirectoryMade): MadeLayout {
  const layout: MadeLayout = { groups: GROUPS.filter((g) => made[g] !== null), files: [], twins: [] };
  let at = 0;
  const put = (bytes: Uint8Array) => {
    writeAllAt(fd, bytes, at);
    at += bytes.byteLength;
    return bytes.byteLength;
  };
  for (const group of layout.groups) {
    for (const [name, content] of Object.entries(made[group]!)) {
      const text = typeof content === 'string';
      // UTF-16 gives back any string as it was (UTF-8 would not a lone surrogate)
      layout.files.push({ group, name, text, length: put(text ? Buffer.from(content, 'utf16le') : content) });
    }
  }
  for (const [name, twins] of Object.entries(made.compressed)) {
    layout.twins.push({ name, gzip: twins.gzip, brotli: twins.brotli, gz: put(twins.gz), br: put(twins.br) });
  }
  return layout;
}

/** What writeMade wrote from the start of `fd` with this layout. */
export function readMade(fd: number, layout: MadeLayout): DirectoryMade {
  const made: DirectoryMade = { autocomplete: null, minisearch: null, compressed: {} };
  for (const group of layout.groups) made[group] = {};
  let at = 0;
  const take = (length: number) => {
    const bytes = Buffer.allocUnsafe(length);
    readAllAt(fd, bytes, 0, length, at);
    at += length;
    return bytes;
  };
  const byName = new Map<string, string | Uint8Array>();
  for (const { group, name, text, length } of layout.files) {
    const bytes = take(length);
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
