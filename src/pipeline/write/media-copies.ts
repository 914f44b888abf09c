// The media records backed by a file in content/: answered from a copy in the dist at the URL the
// API gives them, listed in the media index (MEDIA_FILES_INDEX) and given routing rules of their
// own. Made the same way by a full build and by a patch.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Media } from '../../model/types.ts';
import { digestOf } from '../../store/format/manifest.ts';
import { mediaFileName, type MediaFile } from '../../store/format/public-files.ts';

/** The media files, in id order. */
export function mediaFilesOf(media: ReadonlyMap<number, Media>): MediaFile[] {
  const files: MediaFile[] = [];
  for (const m of [...media.values()].sort((a, b) => a.id - b.id)) {
    if (m.source) files.push({ id: m.id, file: mediaFileName(m.id, m.sourceName ?? basename(m.source)), mimetype: m.mimetype });
  }
  return files;
}

/** Copies each into `staging` (read once: the copy and its hash in `served` are the same bytes); `wrote` is told each. */
export function copyMediaFiles(files: readonly MediaFile[], media: ReadonlyMap<number, Media>, staging: string, served: Map<string, string>, wrote?: Set<string>): void {
  for (const m of files) {
    const bytes = readFileSync(media.get(m.id)!.source!);
    mkdirSync(dirname(join(staging, m.file)), { recursive: true });
    writeFileSync(join(staging, m.file), bytes);
    wrote?.add(m.file);
    served.set(m.file, digestOf(bytes).sha256);
  }
}
