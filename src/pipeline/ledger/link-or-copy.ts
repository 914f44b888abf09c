// A proven file of the previous dist put into the staging folder: hard-linked, or where the file
// system makes no hard links (FAT/exFAT, some network mounts and CI caches) copied and checked to
// be the proven file, so a build over the prior works there too, at the cost of the copies.
import { constants, copyFileSync, linkSync, readFileSync, utimesSync } from 'node:fs';
import { copyFile, link } from 'node:fs/promises';
import { sha256 } from '../cache/build-cache.ts';
import { identityOf, unlinkQuietly } from '../cache/cache-file.ts';

/** The links made: a test puts a file system without hard links in their place. */
export const hardLinks = { linkSync, link };

/** A link failing so says the file system makes none: the rest of the build copies without trying. */
const NO_LINKS = new Set(['EPERM', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

export class LinkOrCopy {
  /** false once a link failed as on a file system without hard links */
  private linking = true;
  /** settles once the first link on libuv's pool has: until then whether to try is not known */
  private first: Promise<unknown> | null = null;

  /**
   * Puts `from`, proven by its identity `id` (and SHA-256 `sha` when given), at `to`. Returns the
   * identity `to` is proven by, or null when the copy is not the proven file (`from` changed).
   * Throws where the link fails otherwise, or the copy does.
   */
  placeSync(from: string, to: string, id: string, sha?: string): string | null {
    try {
      if (this.linking) {
        hardLinks.linkSync(from, to);
        return id;
      }
    } catch (e) {
      this.refused(e);
    }
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    return this.checked(from, to, id, sha);
  }

  /** As placeSync, on libuv's pool; the first link is awaited before another is tried. */
  async place(from: string, to: string, id: string, sha?: string): Promise<string | null> {
    if (this.first !== null) await this.first;
    try {
      if (this.linking) {
        const linked = hardLinks.link(from, to);
        this.first ??= linked.catch(() => undefined);
        await linked;
        return id;
      }
    } catch (e) {
      this.refused(e);
    }
    await copyFile(from, to, constants.COPYFILE_EXCL);
    return this.checked(from, to, id, sha);
  }

  /** Goes on to copy where the file system (or, EMLINK, this file) takes no more links; else throws. */
  private refused(e: unknown): void {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (NO_LINKS.has(code)) this.linking = false;
    else if (code !== 'EMLINK') throw e;
  }

  /**
   * The copy's identity when it is the proven file: `from` unwritten meanwhile (its identity), the
   * copy of its size and SHA-256. The copy keeps `from`'s mtime, as a link does, for rsync's sake.
   */
  private checked(from: string, to: string, id: string, sha: string | undefined): string | null {
    const [, , size, mtimeNs] = id.split(':');
    if (identityOf(from) !== id || identityOf(to)?.split(':')[2] !== size || (sha !== undefined && sha256(readFileSync(to)).toString('hex') !== sha)) {
      unlinkQuietly(to);
      return null;
    }
    const mtime = Number(BigInt(mtimeNs) / 1000n) / 1e6;
    utimesSync(to, mtime, mtime);
    return identityOf(to);
  }
}
