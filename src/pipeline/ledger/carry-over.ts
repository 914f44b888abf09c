// Files of the previous dist put into the staging folder, so rsync or a CDN uploader skips them:
// those the ledger proves (dist-ledger.ts), and after the render each staged file whose bytes equal
// the previous one's (compared, never assumed: a hand-edited dist file is not carried). Where the
// file system makes no hard links, copies checked to be the proven file, or the previous mtime.
import { constants, copyFileSync, linkSync, lstatSync, readFileSync, renameSync, utimesSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { listFiles, sameBytes } from '../../util/same-files.ts';
import { sha256 } from '../cache/keys.ts';
import { identityOf, unlinkQuietly } from '../cache/cache-file.ts';

/** The links made: a test puts a file system without hard links in their place. */
export const hardLinks = { linkSync };

/** A link failing so says the file system makes none: the rest of the build tries no other. */
const NO_LINKS = new Set(['EPERM', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

export class LinkOrCopy {
  /** false once a link failed as on a file system without hard links */
  private linking = true;

  /**
   * Puts `from`, proven by its identity `id` (and SHA-256 `sha` when given), at `to`. Returns the
   * identity `to` is proven by, or null when the copy is not the proven file: `from` written
   * meanwhile, or the copy not of its size and SHA-256. A copy keeps `from`'s mtime, as a link does,
   * for rsync's sake. Throws where the link fails otherwise, or the copy does.
   */
  place(from: string, to: string, id: string, sha?: string): string | null {
    if (this.linkedHere(from, to)) return id;
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    const [, , size, mtimeNs] = id.split(':');
    if (identityOf(from) !== id || identityOf(to)?.split(':')[2] !== size || (sha !== undefined && sha256(readFileSync(to)).toString('hex') !== sha)) {
      unlinkQuietly(to);
      return null;
    }
    const mtime = Number(BigInt(mtimeNs) / 1000n) / 1e6;
    utimesSync(to, mtime, mtime);
    return identityOf(to);
  }

  /** Replaces `to`, which holds `from`'s bytes, by a link to `from`; where none is made, `to` takes `from`'s times. */
  linkOver(from: string, to: string, times: Stats): void {
    const temporary = `${to}.aula-link`;
    try {
      if (this.linkedHere(from, temporary)) return renameSync(temporary, to);
    } catch {
      // (a permission, a name in the way): the bytes are the same, kept as written
      unlinkQuietly(temporary);
    }
    utimesSync(to, times.atime, times.mtime);
  }

  /** Whether `to` is now a link to `from`: false where links are not made. */
  private linkedHere(from: string, to: string): boolean {
    if (!this.linking) return false;
    try {
      hardLinks.linkSync(from, to);
      return true;
    } catch (e) {
      // goes on without links where the file system (or, EMLINK, this file) takes no more; else throws
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (NO_LINKS.has(code)) this.linking = false;
      else if (code !== 'EMLINK') throw e;
      return false;
    }
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** True when `staged` already is, or now stands for, the unchanged `previous` file. */
export function carryFile(previous: string, staged: string, links = new LinkOrCopy()): boolean {
  const [old, now] = [statOrNull(previous), statOrNull(staged)];
  if (!old?.isFile() || !now?.isFile()) return false;
  if (old.dev === now.dev && old.ino === now.ino) return true;
  if (old.size !== now.size || !sameBytes(previous, staged, old.size)) return false;
  links.linkOver(previous, staged, old);
  return true;
}

/**
 * Carries every unchanged staged file over; returns those carried.
 * `settled`: a file not to compare (linked already, or known to differ).
 */
export function carryOver(previousDist: string, staging: string, settled: (rel: string) => boolean = () => false, files: readonly string[] = listFiles(staging), links = new LinkOrCopy()): string[] {
  if (!statOrNull(previousDist)?.isDirectory()) return [];
  return files.filter((rel) => !settled(rel) && carryFile(join(previousDist, rel), join(staging, rel), links));
}
