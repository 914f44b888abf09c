// Reads a small bookkeeping file (a manifest, a lock) that someone else may have put there: only
// a regular file, not through a link, and not beyond `max` bytes — a FIFO would block the read
// forever, a link to /dev/zero would fill memory.
import { lstatSync, readFileSync } from 'node:fs';

export function readSmallFile(path: string, max: number): string | null {
  try {
    const info = lstatSync(path);
    if (!info.isFile() || info.size > max) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
