// Files a build frees, kept for the next build to write into. On a file system that discards freed
// blocks as it frees them (ext4 mounted `discard`), an unlink that frees a file's blocks waits for
// the device, and creating a file where thousands were just freed costs the kernel more than
// overwriting one: a spare is moved aside by a rename (which frees nothing), and the next build
// renames it to the path it writes and overwrites it in place, so where sizes match no block is
// freed and none allocated.
//
// Safety: a spare lives in a folder of aula's beside the out folder (the same file system), and
// its record names each one with the identity it had when aula moved it there (inode, size, mtime,
// mode): a file is taken, or removed, only while it has that identity, and taken only while it
// has no other link (somebody's `cp -al` or rsync --link-dest copy shares its bytes). Only files
// read whole, at once, are kept (the caller's rule: aula's server reads the dataset's files
// through descriptors it holds until it loads the next dist, so those are never kept), and a
// spare rests REST_MS before a build writes into it, the next build's start, load and render
// coming on top: a read begun before the swap (a static host sending a page, a server reading a
// document) has ended long before.
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeAllAt } from './positional-io.ts';
import { eachInFlight } from './unlink-many.ts';

/** The record in a spare folder: which files in it aula moved there, and as what. */
export const SPARE_RECORD = '.aula-spares';
const RECORD_HEAD = 'aula spares 1';

/** Spares kept at most, in files and in bytes: enough for every list page of a large site, and a bounded share of the disk. */
export const MOST_SPARES = { files: 16_384, bytes: 384 * 1024 * 1024 };
/** A file larger than this is not kept: a larger one is sent for longer, and few of them are freed. */
export const LARGEST_SPARE = 1024 * 1024;
/** How long a spare rests, moved aside, before a build writes into it: a file of at most LARGEST_SPARE is read or sent in milliseconds. */
export const REST_MS = 2_000;
/** The file system's block: a spare with more blocks than a file needs would free some when cut to its length. */
const BLOCK = 4096;

/** A spare handed out to be written (writeOver), with the identity it must still have. */
export type Spare = { path: string; id: string };
type Entry = { name: string; id: string; size: number; kept: number };

/** The folder of `out`'s spares: beside it, so a rename reaches it. */
export const spareFolderOf = (out: string) => join(dirname(out), `.aula-spare-${basename(out)}`);

const idOf = (s: BigIntStats) => `${s.ino}:${s.size}:${s.mtimeNs}:${s.mode}`;
const sameFile = (path: string, id: string) => {
  const s = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return s?.isFile() === true && idOf(s) === id;
};
const blocksOf = (size: number) => Math.ceil(size / BLOCK);

/**
 * Whether `folder` is aula's spare folder, made here where missing: a folder (no link) that aula
 * made — it holds aula's record, or nothing but the `.gitignore` aula writes first (a build stopped
 * before its first record) — and that git and its like ignore (it sits in the site's repository,
 * beside dist/). A folder of that name holding anything else is somebody's: no spare goes there.
 * Files are created only where no file or link of that name is (O_EXCL), so a link put there is
 * never followed.
 */
function ownFolder(folder: string): boolean {
  try {
    mkdirSync(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    if (!lstatSync(folder).isDirectory() || !madeByAula(folder)) return false;
  }
  try {
    if (!existsSync(join(folder, '.gitignore'))) writeFileSync(join(folder, '.gitignore'), GITIGNORE, { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

const GITIGNORE = '*\n';

/** Whether the folder's record is aula's, or it holds at most the `.gitignore` aula writes into the folder it makes. */
function madeByAula(folder: string): boolean {
  const names = readdirSync(folder);
  if (names.includes(SPARE_RECORD)) return isFile(join(folder, SPARE_RECORD)) && readFileSync(join(folder, SPARE_RECORD), 'utf8').split('\n', 1)[0] === RECORD_HEAD;
  return names.every((n) => n === '.gitignore') && (names.length === 0 || (isFile(join(folder, '.gitignore')) && readFileSync(join(folder, '.gitignore'), 'utf8') === GITIGNORE));
}

const isFile = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;

/** The record's entries whose files are in the folder now (a taken or removed one is not); none where there is no record. */
function recorded(folder: string): Entry[] {
  let text: string;
  let present: Set<string>;
  try {
    if (!lstatSync(folder).isDirectory() || !isFile(join(folder, SPARE_RECORD))) return [];
    text = readFileSync(join(folder, SPARE_RECORD), 'utf8');
    present = new Set(readdirSync(folder));
  } catch {
    return [];
  }
  const lines = text.split('\n');
  if (lines[0] !== RECORD_HEAD) return [];
  const entries: Entry[] = [];
  for (const line of lines.slice(1)) {
    const [name, id, kept] = line.split('\t');
    const size = Number(id?.split(':')[1]);
    if (kept !== undefined && present.has(name) && !name.startsWith('.') && Number.isSafeInteger(size)) entries.push({ name, id, size, kept: Number(kept) });
  }
  return entries;
}

function writeRecord(folder: string, entries: readonly Entry[]): void {
  const temporary = join(folder, `${SPARE_RECORD}.${process.pid}`);
  // a temporary of this name is what a stopped build of the same pid left in aula's folder
  if (isFile(temporary)) unlinkSync(temporary);
  writeFileSync(temporary, [RECORD_HEAD, ...entries.map((e) => `${e.name}\t${e.id}\t${e.kept}`)].join('\n'), { flag: 'wx' });
  renameSync(temporary, join(folder, SPARE_RECORD));
}

/** The spares of `out` that have rested, handed out by size. */
export class SpareFiles {
  /** rested spares by their size in blocks, and those sizes in order */
  private readonly byBlocks = new Map<number, Entry[]>();
  private sizes: number[] = [];

  constructor(
    readonly folder: string,
    now = Date.now(),
  ) {
    for (const e of recorded(folder)) {
      if (e.kept > now - REST_MS) continue;
      const blocks = blocksOf(e.size);
      const list = this.byBlocks.get(blocks);
      if (list) list.push(e);
      else this.byBlocks.set(blocks, [e]);
    }
    this.sizes = [...this.byBlocks.keys()].sort((a, b) => a - b);
  }

  /** A spare for a file of `size` bytes: one of as many blocks, else the largest of fewer (cut to length it would free blocks); none when there is no such. */
  pick(size: number): Spare | undefined {
    const blocks = blocksOf(size);
    let i = this.sizes.length - 1;
    while (i >= 0 && this.sizes[i] > blocks) i--;
    if (i < 0) return undefined;
    const list = this.byBlocks.get(this.sizes[i])!;
    const e = list.pop()!;
    if (list.length === 0) {
      this.byBlocks.delete(this.sizes[i]);
      this.sizes.splice(i, 1);
    }
    return { path: join(this.folder, e.name), id: e.id };
  }
}

/**
 * Writes `bytes` to `path` (which does not exist yet, or is this build's): into `spare` where it is
 * still the file aula kept and has no other link, else into a new file.
 */
export function writeOver(path: string, bytes: string | Uint8Array, spare?: Spare): void {
  if (spare === undefined || !overSpare(path, typeof bytes === 'string' ? Buffer.from(bytes) : bytes, spare)) writeFileSync(path, bytes);
}

function overSpare(path: string, bytes: Uint8Array, spare: Spare): boolean {
  const before = lstatSync(spare.path, { bigint: true, throwIfNoEntry: false });
  if (!before?.isFile() || before.nlink !== 1n || idOf(before) !== spare.id) return false;
  renameSync(spare.path, path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  } catch {
    // not writable after all: removed, as it would be without spares
    unlinkSync(path);
    return false;
  }
  let ours = false;
  try {
    const now = fstatSync(fd, { bigint: true });
    ours = now.ino === before.ino && now.nlink === 1n;
    if (ours) {
      writeAllAt(fd, bytes, 0);
      // within the blocks it has (pick): nothing freed when it is cut to length
      if (Number(now.size) !== bytes.byteLength) ftruncateSync(fd, bytes.byteLength);
    }
  } finally {
    closeSync(fd);
  }
  // linked between the look and the rename: its bytes are somebody's, and this path gets a new file
  if (!ours) unlinkSync(path);
  return ours;
}

/** Spares this process has named: no two get one name. */
let named = 0;

/**
 * Moves those of `freed` that are `keepable` (the caller's rule) into `out`'s spare folder, up to
 * `caps` with the spares there (the oldest of those go first), and unlinks the rest, `inFlight` at
 * a time (the moves one by one). The record names the new ones before they move and drops the
 * removed ones once they are gone: a build stopped at any point leaves a record that names no file
 * it did not move there.
 */
export async function keepSpares(out: string, freed: readonly string[], inFlight: number, keepable: (path: string) => boolean, caps = MOST_SPARES, now = Date.now()): Promise<void> {
  const folder = spareFolderOf(out);
  const fresh: (Entry & { from: string })[] = [];
  const gone: string[] = [];
  let [files, bytes] = [0, 0];
  for (const path of freed) {
    const s = keepable(path) ? lstatSync(path, { bigint: true, throwIfNoEntry: false }) : undefined;
    const size = Number(s?.size ?? 0);
    if (!s?.isFile() || s.nlink !== 1n || size > LARGEST_SPARE || files + 1 > caps.files || bytes + size > caps.bytes) {
      gone.push(path);
      continue;
    }
    files++;
    bytes += size;
    fresh.push({ name: `${now}-${process.pid}-${named++}`, id: idOf(s), size, kept: now, from: path });
  }
  // the newest old ones stay, within the caps left; of the others, each goes only while it is what aula moved there
  const [stay, trimmed]: Entry[][] = [[], []];
  for (const e of fresh.length === 0 ? [] : recorded(folder).sort((a, b) => b.kept - a.kept)) {
    files++;
    bytes += e.size;
    if (files <= caps.files && bytes <= caps.bytes) stay.push(e);
    else if (sameFile(join(folder, e.name), e.id)) trimmed.push(e);
  }
  // no folder of aula's to keep them in: every one goes
  if (fresh.length > 0 && !ownFolder(folder)) for (const e of fresh.splice(0)) gone.push(e.from);
  if (fresh.length > 0) writeRecord(folder, [...stay, ...trimmed, ...fresh]);
  // the removals, which wait on the device, queued first; the moves free nothing and cost least one
  // by one on this thread (through the pool's threads, several times the CPU)
  const removing = eachInFlight([...gone, ...trimmed.map((e) => join(folder, e.name))].map((path) => () => unlink(path)), inFlight);
  const stuck: string[] = [];
  for (const e of fresh) {
    try {
      renameSync(e.from, join(folder, e.name));
    } catch {
      // one that cannot move is removed, as it would be without spares
      stuck.push(e.from);
    }
  }
  await Promise.all([removing, eachInFlight(stuck.map((path) => () => unlink(path)), inFlight)]);
  if (trimmed.length > 0) writeRecord(folder, [...stay, ...fresh]);
}
