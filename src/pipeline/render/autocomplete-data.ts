// The directory's files as a dist holds them, and their measure.
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../../store/format/dist-paths.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { hashedAutocompleteFiles } from '../../store/write/hashed-files.ts';
import type { DirectoryJob } from '../directory/directory-job.ts';
import { SERVER_INDEX } from '../directory/server-index.ts';

/**
 * The directory's files as a dist holds them, put in `files`: its job's autocomplete index and
 * module, data/autocomplete.bin made of the index (on the job's thread, kept with them), and the
 * content-hashed twins of both (the copies among them returned: compressed once); and
 * MiniSearch's when asked for, awaited after `between` (the build's clock starts its phase).
 */
export async function directoryDistFiles(job: DirectoryJob, minisearch: boolean, files: DistFiles, between: () => Promise<void>): Promise<ReadonlyMap<string, string>> {
  for (const [rel, text] of Object.entries(await job.autocomplete)) files.set(rel === SERVER_INDEX ? AUTOCOMPLETE_DATA_FILE : `${AUTOCOMPLETE_DIR}/${rel}`, text);
  const ac = (name: string) => files.get(`${AUTOCOMPLETE_DIR}/${name}`) as string;
  // content-hashed twins of the browser module and its index, cacheable as immutable
  const hashed = hashedAutocompleteFiles(ac(AUTOCOMPLETE_INDEX_FILE), ac(AUTOCOMPLETE_MODULE_FILE));
  for (const [name, text] of hashed.files) files.set(`${AUTOCOMPLETE_DIR}/${name}`, text);
  await between();
  if (minisearch) for (const [rel, text] of Object.entries(await job.minisearch)) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
  return hashed.copies;
}

/** The bytes of the autocomplete files among `files`: with the event parts', the measure of what a dist compresses (Rendered.volume). */
export function autocompleteBytes(files: DistFiles): number {
  let bytes = 0;
  for (const [rel, c] of files) if (rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) bytes += typeof c === 'string' ? c.length : c.byteLength;
  return bytes;
}
