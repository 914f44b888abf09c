// A proven file of the previous dist put into the staging folder: hard-linked where the file system
// makes hard links, else (FAT/exFAT, some network mounts and CI caches) copied and checked to be the
// proven file, so a build over the prior works there too, at the cost of the copies.
import { closeSync, constants, copyFileSync, linkSync, openSync, utimesSync } from 'node:fs';
import { copyFile, link } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { readFully } from '../../util/positional-io.ts';
import { identityOf, unlinkQuietly } from '../cache/cache-file.ts';

/** The links made: a test puts a file system without hard links in their place. */
export const hardLinks = { linkSync, link };

/** A link failing so says the file system makes none: the rest of the build copies without trying. */
const NO_LINKS = new Set(['EPERM', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

const CHUNK = 1 << 20;

function fileSha(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (let at = 0, n; (n = readFully(fd, chunk, 0, CHUNK, at)) > 0; at += n) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

export class LinkOrCopy {
  /** false once a link failed as on a file system without hard links */
  private linking = true;
  /** settles once the first link on libuv's pool has: until then whether to try is not known */
  private first: Promise<void> | null = null;

  /**
   * Puts `from`, proven by its identity `id` (and SHA-256 `sha` when given), at `to`. Returns the
   * identity `to` is proven by, or null when the copy is not the proven file (`from` changed).
   * Throws when the link fails otherwise, or the copy does.
   */
  placeSync(from: string, to: string, id: string, sha?: string): string | null {
    if (this.linking) {
      try {
        hardLinks.linkSync(from, to);
        return id;
      } catch (e) {
        this.refused(e);
      }
    }
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    return this.checked(from, to, id, sha);
  }

  /** As placeSync, on libuv's pool; the first link is awaited before any other is tried. */
  async place(from: string, to: string, id: string, sha?: string): Promise<string | null> {
    const first = this.first === null;
    if (!first) await this.first;
    if (this.linking) {
      const linked = hardLinks.link(from, to);
      if (first) this.first = linked.then(() => undefined, () => undefined);
      try {
        await linked;
        return id;
      } catch (e) {
        this.refused(e);
      }
    }
    await copyFile(from, to, constants.COPYFILE_EXCL);
    return this.checked(from, to, id, sha);
  }

  /** Goes on to copy where the file system (or, EMLINK, this file) takes no more links; else throws. */
  private refused(e: unknown): void {
    const code = (e as NodeJS.ErrnoException | null)?.code ?? '';
    if (NO_LINKS.has(code)) this.linking = false;
    else if (code !== 'EMLINK') throw e;
  }

  /**
   * The copy's identity when it is the proven file: `from` still has the identity it was proven by
   * (nothing wrote it during the copy), the copy has its size and, when given, its SHA-256. The
   * copy keeps `from`'s mtime, as a link would, so rsync or an uploader skips it.
   */
  private checked(from: string, to: string, id: string, sha: string | undefined): string | null {
    const [, , size, mtimeNs] = id.split(':');
    if (identityOf(from) === id && identityOf(to)?.split(':')[2] === size && (sha === undefined || fileSha(to) === sha)) {
      const mtime = Number(BigInt(mtimeNs) / 1000n) / 1e6;
      utimesSync(to, mtime, mtime);
      return identityOf(to);
    }
    unlinkQuietly(to);
    return null;
  }
}
