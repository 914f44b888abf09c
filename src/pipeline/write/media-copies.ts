// Media files copied into the dist. A file was checked when the content was loaded, and may have
// been replaced since (in a long `aula dev` session, by a link out of the folder), so the copy
// reads only the file checked: no link followed, still at its real path, of the checked size.
import { closeSync, constants, fstatSync, openSync, realpathSync, statSync } from 'node:fs';
import { readFully } from '../../util/positional-io.ts';
import { basename } from 'node:path';
import type { Media } from '../../model/types.ts';
import { digestOf } from '../../store/format/manifest.ts';
import { mediaFileName, type MediaFile } from '../../store/format/public-files.ts';
import { writeFiles } from './staged-dist.ts';

export function mediaFilesOf(media: ReadonlyMap<number, Media>): MediaFile[] {
  const files: MediaFile[] = [];
  for (const m of [...media.values()].sort((a, b) => a.id - b.id)) {
    if (m.source) files.push({ id: m.id, file: mediaFileName(m.id, m.sourceName ?? basename(m.source)), mimetype: m.mimetype });
  }
  return files;
}

/** A content file changed between the check and its use: the user's to know, not aula's fault. */
class ContentChanged extends Error {
  override name = 'ContentChanged';
}

/** The bytes of the checked file `m.source`, or an error naming it when it is no longer that file. */
function checkedBytes(m: Media): Buffer {
  const source = m.source!;
  const changed = (what: string) => new ContentChanged(`media file ${m.sourceName ?? basename(source)} (id ${m.id}) ${what} since the content was checked; build again`);
  let fd: number;
  try {
    // non-blocking: a FIFO put in its place is refused below, not waited on
    fd = openSync(source, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    throw changed(`cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const info = fstatSync(fd);
    let there: { dev: number; ino: number } | null = null;
    try {
      // a folder on its path replaced by a link moves the real path: then it is not the checked file
      there = realpathSync(source) === source ? statSync(source) : null;
    } catch {
      there = null;
    }
    if (!info.isFile() || there === null || there.dev !== info.dev || there.ino !== info.ino) throw changed('was replaced');
    if (info.size !== m.size) throw changed(`changed size (${m.size} → ${info.size} bytes)`);
    const bytes = Buffer.allocUnsafe(info.size);
    if (readFully(fd, bytes, 0, bytes.length, 0) < bytes.length) throw changed('was cut short');
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Copies each into `staging` (read once: the copy and its hash in `served` are the same bytes); returns their list. */
export function copyMediaFiles(media: ReadonlyMap<number, Media>, staging: string, served: Map<string, string>): MediaFile[] {
  const files = mediaFilesOf(media);
  for (const m of files) {
    const bytes = checkedBytes(media.get(m.id)!);
    writeFiles(staging, new Map([[m.file, bytes]]));
    served.set(m.file, digestOf(bytes).sha256);
  }
  return files;
}
