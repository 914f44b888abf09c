// The one line `aula` prints on stderr when a command fails. File-system errors name the path
// and the cause in words (node's own message is `ENOSPC: no space left on device, write` — no
// path for a write, and the code first); every path is printed escaped (see printable.ts).
import { printable } from './printable.ts';

const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'is a folder, not a file',
  EEXIST: 'already exists',
  ENOTEMPTY: 'folder not empty',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EIO: 'input/output error',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EXDEV: 'cannot move across file systems',
  EBUSY: 'resource busy',
  EFBIG: 'file too large',
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'address not available on this machine',
};

/** Errors whose message is already meant for the user. */
const USER_FACING = new Set(['DistError', 'OriginUnavailable', 'RefusedBuild', 'OutFolderError', 'LockError', 'ServeError', 'InitError', 'ContentChanged']);

function isErrno(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && /^E[A-Z0-9]+$/.test((e as NodeJS.ErrnoException).code!);
}

/** The cause of a file-system error in words with its code (`is a folder, not a file [EISDIR]`), without the path. */
export function causeOf(e: unknown): string {
  if (!isErrno(e)) return e instanceof Error ? e.message.split('\n')[0] : String(e);
  return `${CAUSES[e.code!] ?? e.message.replace(/^[A-Z0-9]+: /, '').replace(/,.*$/s, '')} [${e.code}]`;
}

/** A one-line description of a failure, without the `aula: ` prefix. */
export function describeFailure(e: unknown): string {
  if (isErrno(e)) {
    const code = e.code!;
    const cause = CAUSES[code] ?? e.message.replace(/^[A-Z0-9]+: /, '').replace(/,.*$/s, '');
    const { path, dest } = e as NodeJS.ErrnoException & { dest?: string };
    const where = path ? (dest ? `${printable(path)} → ${printable(dest)}` : printable(path)) : null;
    const action = e.syscall ? ` (${e.syscall})` : '';
    return where ? `${where}: ${cause} [${code}]${action}` : `${cause} [${code}]${action}`;
  }
  if (e instanceof Error) {
    const first = e.message.split('\n')[0];
    return printable(USER_FACING.has(e.name) ? first : `unexpected error: ${first}`);
  }
  return printable(`unexpected error: ${String(e)}`);
}
