// The model rendered into the data files: the events' rows (from the rows the parse threads made,
// the rows cache, or rendered here), their parts, columns and texts (taken from the previous
// dist's where it has the same rows), written as they are made; then the directory's indexes,
// and the manifest of it all.
import type { BuildModel } from '../../model/event-texts.ts';
import type { EventRows } from '../../store/format/event-rows.ts';
import { DATA_FILES, EVENT_PART_ROWS } from '../../store/format/dist-paths.ts';
import { COLUMN_FILES } from '../../store/format/column-files.ts';
import { autocompleteBytes, directoryDistFiles } from './autocomplete-data.ts';
import { digestsOf, type Manifest } from '../../store/format/manifest.ts';
import type { MediaFile } from '../../store/format/public-files.ts';
import { renderDataFiles, rowsRenderer, type DistFiles, type RowMaker } from '../../store/write/data-files.ts';
import { calendarData } from './calendar-data.ts';
import type { DirectoryJob } from '../directory/directory-job.ts';
import type { ParsePool } from '../load/parse-pool.ts';
import type { StateRecorder } from '../state/state-recorder.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { manifestOf, newestOf, sealManifest } from '../write/manifest-of.ts';
import type { StagedDist } from '../write/staged-dist.ts';
import { collectGarbage } from './collect-garbage.ts';
import { previousData } from './previous-data.ts';
import type { PreviousBuild } from '../state/previous-build.ts';
import { cachedRows, eventKeys, rowsPath, type RowsAhead } from '../rows/render-cache.ts';

export interface Rendered {
  /** the files not written yet (autocomplete, documents' inputs) and the small data files */
  files: DistFiles;
  manifest: Manifest;
  /** the autocomplete files that are hashed copies of others (compressed once) */
  hashedCopies: ReadonlyMap<string, string>;
  /** the event parts' bytes */
  eventBytes: number;
  /**
   * the measure of what the dist compresses, known before the pages exist (every event appears on
   * exactly one page): the event parts' bytes and the autocomplete files'
   */
  volume: number;
  eventCount: number;
  /** the rows' hashes in list order (render-cache.ts rowHash), of which the pages' keys are made; null without a cache */
  hashes: Buffer | null;
  mediaFiles: MediaFile[];
}

/**
 * The rows of the events in list order: the parse threads' where they were made against this
 * very context, else from the rows cache by their keys (render-cache.ts), else rendered here.
 * The rows as made are dead once they are in list order: let go and collected before the rest
 * of the data files is made.
 */
function rowMaker(options: BuildOptions, parsing: ParsePool, recorder: StateRecorder, dist: StagedDist, hashed: (h: Buffer) => void): RowMaker {
  return (events, ctx) => {
    // (the rows made ahead hold their events' texts: those events came without them, parse-payload.ts)
    let ahead: RowsAhead | undefined = parsing.rowsFor(ctx);
    let rows: EventRows;
    if (options.cache === undefined) rows = rowsRenderer(ahead.premade, ahead.whole)(events, ctx);
    else {
      // (the threads' file of rows: kept as the rows file when it is written whole)
      const made = ahead.premade ? parsing.rowsMade() : null;
      const cached = cachedRows(rowsPath(options.cache, options.content), events, eventKeys(events, ctx, recorder.sourceKeyOf, ahead.premade), ctx, dist.reused.rows, ahead, made);
      rows = cached.rows;
      hashed(cached.hashes);
      recorder.listOrder(events, cached.hashes);
    }
    // (cleared, not left to go out of scope: the collection that follows, once the events too
    // are let go of (eventsTaken), runs while this frame is on the stack)
    ahead = undefined;
    parsing.dropRows();
    return rows;
  };
}

export async function renderStage(
  options: BuildOptions,
  clock: Clock,
  input: { out: string; previous: PreviousBuild | null; model: BuildModel; baseUrl: string; parsing: ParsePool; recorder: StateRecorder; directory: DirectoryJob; directoryCount: number },
  dist: StagedDist,
): Promise<Rendered> {
  const { model, baseUrl, directory } = input;
  let hashes: Buffer | null = null;
  const rowsOf = rowMaker(options, input.parsing, input.recorder, dist, (h) => (hashes = h));
  const partRows = options.eventPartRows ?? EVENT_PART_ROWS;
  // The data files are written as they are made, before the directory is indexed, and the large
  // ones leave the heap: the dataset reads them back from the staging folder (the event parts by
  // offset). The event parts are written on libuv's pool while this thread makes the columns.
  let eventBytes = 0;
  const take = (parts: [string, Uint8Array][]) => {
    const later = new Map<string, string | Uint8Array>();
    for (const [rel, part] of parts) {
      dist.data(rel, part, later);
      eventBytes += part.byteLength;
    }
    dist.writeLater(later);
  };
  // the previous dist's data where the ledger proves it: what its rows have in common is taken from it
  const reuse = () => (options.cache === undefined || hashes === null ? null : previousData(input.previous, input.out, model.site.timezone, partRows, hashes));
  // what the manifest needs of the events, before their records (most of the model) are let go
  // of, once their columns' values are made (eventsTaken: with the rows as made, collected there)
  const eventCount = model.events.length;
  const newest = newestOf(model.events);
  const files = await renderDataFiles(model, baseUrl, async () => ({}), rowsOf, partRows, { take, eventsTaken: () => collectGarbage() }, calendarData, reuse);
  for (const rel of [...Object.values(DATA_FILES), ...COLUMN_FILES]) dist.data(rel, files.get(rel)!);
  for (const rel of COLUMN_FILES) files.delete(rel);
  // one collection for the rows as taken and the columns' files: once the parts are written (they
  // were while the columns were made), nothing holds the rows
  await dist.settled();
  collectGarbage();
  // The directory's files are awaited only now that the events and their data files have left the
  // heap: a directory still being indexed no longer adds to a heap holding them all.
  const minisearch = options.minisearch !== false;
  const next = minisearch ? 'minisearch' : 'write data';
  const hashedCopies = await directoryDistFiles(directory, model.site.page_size, minisearch, files, () => clock.nextPhase('render data', next));
  if (minisearch) await clock.nextPhase('minisearch', 'write data');
  const counts = { events: eventCount, pages: model.pages.size, categories: model.categories.length, media: model.media.size, directory: input.directoryCount };
  const manifest = manifestOf(model.site, baseUrl, newest, counts, partRows);
  // the data files only (those hashed already as written, the others now): what the server loads and verifies
  const digests = { ...digestsOf([...files].filter(([rel]) => !dist.digests.has(rel))), ...Object.fromEntries(dist.digests) };
  const mediaFiles = sealManifest(manifest, digests, files, model.media);
  return { files, manifest, hashedCopies, eventBytes, volume: eventBytes + autocompleteBytes(files), eventCount, hashes, mediaFiles };
}
