// Two questions about files on disk that the build asks of a dist: which regular files a folder
// holds, and whether two files hold the same bytes.
import { closeSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFully } from './positional-io.ts';

/** Every regular file under `dir`, relative to it with forward slashes; no link followed. */
export function listFiles(dir: string, prefix = '', found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) listFiles(join(dir, entry.name), rel, found);
    else if (entry.isFile()) found.push(rel);
  }
  return found;
}

const CHUNK = 1 << 20;

/** Whether the files `a` and `b`, each of `size` bytes, hold the same bytes; read a chunk at a time. */
export function sameBytes(a: string, b: string, size: number): boolean {
  const [fa, fb] = [openSync(a, 'r'), openSync(b, 'r')];
  try {
    const [ba, bb] = [Buffer.allocUnsafe(Math.min(CHUNK, size)), Buffer.allocUnsafe(Math.min(CHUNK, size))];
    for (let at = 0; at < size; at += CHUNK) {
      const n = Math.min(CHUNK, size - at);
      if (readFully(fa, ba, 0, n, at) !== n || readFully(fb, bb, 0, n, at) !== n || !ba.subarray(0, n).equals(bb.subarray(0, n))) return false;
    }
    return true;
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}
