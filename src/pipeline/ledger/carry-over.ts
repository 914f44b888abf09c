// Unchanged output keeps its file: a staged file whose bytes equal the previous dist's is replaced
// by a hard link to it (inside the staging folder, before the swap), so rsync or a CDN uploader
// skips it. The bytes are compared, never assumed: a hand-edited dist file is not carried.
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, utimesSync, type Stats } from 'node:fs';
import { readFully } from '../../util/positional-io.ts';
import { unlinkQuietly } from '../cache/cache-file.ts';
import { join } from 'node:path';
import { hardLinks } from './link-or-copy.ts';

/** Every regular file under `dir` (`all`: every entry but folders), relative to it with forward slashes; no link followed. */
export function listFiles(dir: string, prefix = '', all = false, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) listFiles(join(dir, entry.name), rel, all, found);
    else if (all || entry.isFile()) found.push(rel);
  }
  return found;
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

const CHUNK = 1 << 20;

function sameBytes(a: string, b: string, size: number): boolean {
  if (size <= CHUNK) return readFileSync(a).equals(readFileSync(b));
  const fa = openSync(a, 'r');
  const fb = openSync(b, 'r');
  try {
    const ba = Buffer.allocUnsafe(CHUNK);
    const bb = Buffer.allocUnsafe(CHUNK);
    for (let at = 0; at < size; at += CHUNK) {
      const n = Math.min(CHUNK, size - at);
      if (readFully(fa, ba, 0, n, at) !== n || readFully(fb, bb, 0, n, at) !== n) return false;
      if (!ba.subarray(0, n).equals(bb.subarray(0, n))) return false;
    }
    return true;
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}

/** True when `staged` already is, or now links to, the unchanged `previous` file. */
function carryFile(previous: string, staged: string): boolean {
  const old = statOrNull(previous);
  const now = statOrNull(staged);
  if (!old?.isFile() || !now?.isFile()) return false;
  if (old.dev === now.dev && old.ino === now.ino) return true;
  if (old.size !== now.size || !sameBytes(previous, staged, old.size)) return false;
  const temporary = `${staged}.aula-link`;
  try {
    hardLinks.linkSync(previous, temporary);
    renameSync(temporary, staged);
  } catch {
    // No hard links here (another file system, FAT, a permission): same bytes, old mtime.
    unlinkQuietly(temporary);
    utimesSync(staged, old.atime, old.mtime);
  }
  return true;
}

/**
 * Links every unchanged staged file to its previous copy; returns how many were carried.
 * `settled`: a file not to compare (linked already, or known to differ).
 */
export function carryOver(previousDist: string, staging: string, settled: (rel: string) => boolean = () => false, files: readonly string[] = listFiles(staging)): number {
  if (!statOrNull(previousDist)?.isDirectory()) return 0;
  let carried = 0;
  for (const rel of files) {
    if (settled(rel)) continue;
    if (carryFile(join(previousDist, rel), join(staging, rel))) carried++;
  }
  return carried;
}
