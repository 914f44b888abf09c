// The data files the render stage left in memory written (or linked) into the staging folder, and
// every pending write awaited: from here on the dataset reads them back.
import { AUTOCOMPLETE_DIR } from '../../store/format/dist-paths.ts';
import { digestOf } from '../../store/format/manifest.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { writeFiles } from './write-files.ts';
import type { StagedDist } from './staged-dist.ts';

/** A file's SHA-256: the manifest's where it lists the file, else of its bytes. */
export function shaIn(manifest: Manifest, rel: string, content: string | Uint8Array): string {
  return manifest.files[rel]?.sha256 ?? digestOf(content).sha256;
}

export async function writeStage(rendered: { files: DistFiles; manifest: Manifest }, dist: StagedDist): Promise<void> {
  for (const [rel, content] of rendered.files) {
    // the autocomplete files are written with their twins, with the pages
    if (rel.startsWith(`${AUTOCOMPLETE_DIR}/`) || dist.written.has(rel)) continue;
    // the manifest is written again, complete, at the end: never linked
    if (rel === 'manifest.json') writeFiles(dist.staging, new Map([[rel, content]]));
    else dist.file(rel, content, shaIn(rendered.manifest, rel, content));
  }
  await dist.settled();
}
