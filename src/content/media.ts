// media.yaml and media/**: media records, optionally backed by a file in the content folder.
import type { Stats } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { isAbsolute, join, posix, sep } from 'node:path';
import type { Media } from '../model/types.ts';
import type { Fields } from './fields.ts';
import { idOrNaN, issueAt } from './ids.ts';
import { mimetypeOf } from './mimetypes.ts';
import { describeValue, type FileIssue } from './problems.ts';
import { describeSize } from './files.ts';
import type { Sourced } from './records.ts';
import { MEDIA } from './shapes.ts';

const M = MEDIA.fields;

/**
 * The most bytes a media file named by `file:` may have. It is copied into dist/, not parsed, so
 * the limit is not the content files' (MAX_CONTENT_FILE_BYTES): the build reads each one whole,
 * one at a time, to write the copy and hash the very bytes it wrote, so this is what a build may
 * hold for one file on top of its own memory; node reads no more than 2 GiB in one piece at all,
 * and past that the build would end with "unexpected error", naming no file. A media file is
 * meant to be an image or a document beside an event, and video belongs on a video host.
 */
export const MAX_MEDIA_FILE_BYTES = 1024 * 1024 * 1024;

export interface MediaSource {
  media: Media;
  /** path relative to the content folder, or null */
  file: string | null;
  /** the values written in the record, to compare with the file's */
  written: { size: number | null; mimetype: string | null };
}

export function readMedia(f: Fields): MediaSource {
  const id = idOrNaN(f.read(M.id));
  const filename = f.read(M.filename) ?? '';
  const original = f.read(M.original);
  const file = f.read(M.file);
  // With a file, size and mimetype come from it; without one they must be written (their rules say so).
  const mimetype = f.read(M.mimetype);
  const size = f.read(M.size);
  f.rejectUnknown();
  return {
    media: { id, filename, original, mimetype: mimetype ?? '', size: size ?? 0 },
    file,
    written: { size: size ?? null, mimetype: mimetype ?? null },
  };
}

/** Fills size and mimetype of records with a `file` from that file, checking written values. */
export async function resolveMediaFiles(dir: string, records: readonly Sourced<MediaSource>[], out: FileIssue[]): Promise<void> {
  const withFile = records.filter((r) => r.value.file !== null);
  if (withFile.length === 0) return;
  const root = await realpath(dir);
  await Promise.all(withFile.map((r) => resolveOne(root, r, out)));
}

async function resolveOne(root: string, r: Sourced<MediaSource>, out: FileIssue[]): Promise<void> {
  const { media, written } = r.value;
  const file = r.value.file as string;
  const refuse = (message: string) => out.push(issueAt(r, ['file'], message));
  const normal = posix.normalize(file);
  if (isAbsolute(file) || normal === '..' || normal.startsWith('../')) {
    return void refuse(`expected a path inside the content folder, got ${describeValue(file)}`);
  }
  // ('' and '.' are the folder itself, which is inside it: the message says what is expected)
  if (normal === '.' || normal === './') return void refuse(`expected the path of a file inside the content folder, got ${describeValue(file)}`);
  let real: string;
  let info: Stats;
  try {
    real = await realpath(join(root, normal));
    info = await stat(real);
  } catch {
    return void refuse(`no such file in the content folder: ${describeValue(file)}`);
  }
  // A symbolic link can lead out of the folder even when the written path does not.
  if (!real.startsWith(root + sep)) return void refuse(`${describeValue(file)} leads outside the content folder`);
  if (!info.isFile()) return void refuse(`${describeValue(file)} is not a regular file`);
  if (info.size > MAX_MEDIA_FILE_BYTES) {
    return void refuse(`${describeValue(file)} is ${describeSize(info.size)}, more than the ${describeSize(MAX_MEDIA_FILE_BYTES)} a media file may have`);
  }
  // The build copies it: a file it may not read is reported here, with the record that names it,
  // so `aula check` finds what would stop the build.
  try {
    await access(real, constants.R_OK);
  } catch (e) {
    return void refuse(`${describeValue(file)} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }

  media.size = info.size;
  media.mimetype = mimetypeOf(normal);
  media.source = real;
  media.sourceName = posix.basename(normal);
  if (written.size !== null && written.size !== media.size) {
    out.push(issueAt(r, ['size'], `size ${written.size} disagrees with ${file}, which has ${media.size} bytes`));
  }
  if (written.mimetype !== null && written.mimetype !== media.mimetype) {
    out.push(issueAt(r, ['mimetype'], `mimetype ${describeValue(written.mimetype)} disagrees with ${file}, which is ${media.mimetype} by its extension`));
  }
}
