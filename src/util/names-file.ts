// A file of a head, a names part (shared-names.ts) and a body, read so that neither waits for the
// other: the names at once, into shared memory (a thread works by them), the body into a buffer of
// its own (typed-sections.ts takes it apart in place), here or on libuv's thread pool while this
// thread does other work.
import { closeSync, fstatSync } from 'node:fs';
import { readAllAt, readAllLater, readFully } from './positional-io.ts';
import { COUNTS, namesPartOf, type Names } from './shared-names.ts';

/** The head as read (not checked), the names and the body. */
export type NamesFile = { head: Buffer; names: Names; body: Uint8Array };

/** The parts of the file open at `fd` (closed here), its head `headLength` bytes and the whole at most `most(names)` bytes; null where it cannot be one. */
export function readNamesFile(fd: number, headLength: number, most: (names: number) => number): NamesFile | null {
  try {
    const file = namesFirst(fd, headLength, most);
    if (file !== null) readAllAt(fd, file.body, 0, file.body.length, file.from);
    return file === null ? null : { head: file.head, names: file.names, body: file.body };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** As readNamesFile, with the names read now and the body on libuv's thread pool (`fd` closed once read). */
export function beginNamesFile(fd: number, headLength: number, most: (names: number) => number): { names: Names; file: Promise<NamesFile | null> } | null {
  let file;
  try {
    file = namesFirst(fd, headLength, most);
  } catch {
    file = null;
  }
  if (file === null) {
    closeSync(fd);
    return null;
  }
  const { head, names, body, from } = file;
  return { names, file: readAllLater(fd, body, from).then((read) => (read ? { head, names, body } : null)) };
}

/** The head and names read, and the body's buffer to read into from `from`; null where the file cannot be one. */
function namesFirst(fd: number, headLength: number, most: (names: number) => number) {
  const first = Buffer.alloc(headLength + COUNTS);
  if (readFully(fd, first, 0, first.length, 0) !== first.length) return null;
  const names = { bytes: new Uint8Array(new SharedArrayBuffer(first.readUInt32LE(headLength))), count: first.readUInt32LE(headLength + 4) };
  const from = first.length + names.bytes.length;
  const size = fstatSync(fd).size;
  if (from > size || size > most(names.count)) return null;
  readAllAt(fd, names.bytes, 0, names.bytes.length, first.length);
  return { head: first.subarray(0, headLength), names, body: Buffer.allocUnsafeSlow(size - from), from };
}

/** Names as a file held them: their list (`files`, the names first, as many as `names.count`) and their text. */
export type NamesRead = { files: readonly string[]; names: Names };

/**
 * The names part (shared-names.ts's namesPart) of the first `count` of `files` where they are the
 * names `read`: its text written again as it is, nothing encoded; else null. A listing taken as
 * recorded holds the very strings read, each found equal at once (the same string).
 */
export function namesPartAgain({ files: before, names }: NamesRead, files: readonly string[], count: number): Uint8Array[] | null {
  if (names.count !== count) return null;
  for (let i = 0; i < count; i++) if (before[i] !== files[i]) return null;
  return namesPartOf(names);
}
