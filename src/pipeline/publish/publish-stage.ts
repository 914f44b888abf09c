// The last stage: the pages, documents and schemas answered by the API core over the data just
// written (read back as the server reads it), written as they come and compressed by the pool's
// threads meanwhile (a list page or the calendar whose key, page-keys.ts, the ledger proves is
// linked instead); media copies, routing rules, the manifest and changes.json written; unchanged
// files carried over; the dist swapped in; the event state (bound to the manifest: refused beside
// another dist, wherever a build stopped) and the ledger recorded while the former dist's files go.
import { bodyBuffer, bodyText } from '../../api/body.ts';
import { createApi, type Api } from '../../api/core.ts';
import { CALENDAR_CAP } from '../../api/events/calendar.ts';
import { EVENT_LIST_PATH } from '../../api/events/list.ts';
import { DOCUMENTS } from '../../api/documents.ts';
import { DEFAULT_UPSTREAM } from '../../defaults.ts';
import { compressionPool, pageHasTwins, type CompressionPool } from '../../deploy/precompress.ts';
import { routingFiles } from '../../deploy/routing-files.ts';
import { contentSchemaFiles } from '../../docs/content-schemas.ts';
import type { Site } from '../../model/types.ts';
import { datasetFrom } from '../../query/dataset.ts';
import { DEFAULT_WORK_LIMIT, metered, WorkMeter } from '../../query/work-budget.ts';
import { AUTOCOMPLETE_DATA_FILE, AUTOCOMPLETE_DIR, DATA_FILES } from '../../store/format/dist-paths.ts';
import { buildIdOf } from '../../store/format/manifest.ts';
import { isPublicFile } from '../../store/format/public-files.ts';
import { directorySource, memorySource } from '../../store/read/dist-source.ts';
import { isPooled, releaseBuffer } from '../../store/read/page-buffers.ts';
import { unlinkQuietly } from '../cache/cache-file.ts';
import { copyTwins } from '../../store/write/hashed-files.ts';
import type { Plan } from '../load/state-load.ts';
import { changesBetween, CHANGES_FILE, previousPublicFiles } from '../ledger/changes.ts';
import { COMPRESSOR } from '../ledger/dist-ledger.ts';
import { aulaManifest } from '../out-folder/out-folder.ts';
import type { Rendered } from '../render/state-render.ts';
import { calendarKey, pageKeys } from '../rows/page-keys.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { eventStatePath, nextEventState, writeEventState } from '../state/event-state.ts';
import { pageFile } from '../write/manifest-of.ts';
import { copyMediaFiles } from '../write/media-copies.ts';
import { shaIn, writeFiles, type StagedDist } from '../write/staged-dist.ts';
import { sortedRecord } from '../../util/stable-json.ts';

/** Bytes of pages handed to the compression threads and not yet compressed, at most. */
const COMPRESS_AHEAD = 16 << 20;

/** What answering writes through: `emit` writes (or links, proven by its bytes) a file the dist serves, on `pool`'s thread with its twins made at volume `twins` (null: none) when `compress`. */
type Emitter = { pool: CompressionPool; twins: number | null; emit: (rel: string, content: string | Uint8Array, inputs?: string, compress?: boolean) => void };

/** The list pages as `aula serve` answers them, their work counted: one past its limit (it answers 400 "Too expensive") is written all the same, and the user told. */
async function answerPages(options: BuildOptions, api: Api, out: Emitter, rendered: Rendered, dist: StagedDist, envelope: { baseUrl: string; site: Site }): Promise<void> {
  const { manifest, hashes } = rendered;
  const refused: string[] = [];
  const limit = envelope.site.page_size;
  const pageKeyOf = hashes === null ? null : pageKeys(hashes, { ...envelope, limit });
  for (let offset = 0; offset === 0 || offset < manifest.counts.events; offset += limit) {
    const rel = pageFile(offset);
    const inputs = pageKeyOf?.(offset);
    const compress = pageHasTwins(offset);
    // linked without twins when it has none now, whatever the previous dist had
    const proven = dist.linked(rel, inputs, compress ? out.twins : null);
    if (proven) dist.reused.pages++;
    else {
      const query = offset === 0 ? '' : `limit=${limit}&offset=${offset}`;
      const meter = new WorkMeter(Infinity);
      const response = metered(meter, () => api({ method: 'GET', path: EVENT_LIST_PATH, query, headers: {} }));
      if (meter.used > DEFAULT_WORK_LIMIT) refused.push(rel);
      if (response.status !== 200) throw new Error(`page at offset ${offset} answered ${response.status}: ${bodyText(response.body)}`);
      out.emit(rel, bodyBuffer(response.body), inputs, compress);
    }
    options.progress?.('answer pages', offset / limit + 1, manifest.counts.event_list_pages);
    // answered faster than compressed: bounded, so copies do not pile up in the threads' queues
    if (!proven) await out.pool.settled(COMPRESS_AHEAD);
  }
  if (refused.length > 0) options.onWarning?.(`${refused.length} event list page(s) (the first ${refused[0]}) need more work than aula serve does for one request: it answers them 400 "Too expensive" where a static host serves the file; set a smaller page_size in site.yaml, or shorten the longest bodies`);
}

/** The documents, the schemas and the autocomplete files; returns how many documents were answered (not linked). */
function answerDocuments(api: Api, out: Emitter, rendered: Rendered, dist: StagedDist, envelope: { baseUrl: string; site: Site }): number {
  const categories = rendered.manifest.files[DATA_FILES.categories]?.sha256;
  const calendar = rendered.hashes === null || categories === undefined ? undefined : calendarKey(rendered.hashes, CALENDAR_CAP, envelope, rendered.manifest.built_at, categories);
  let answered = 0;
  for (const [rel, path, query] of DOCUMENTS) {
    const inputs = query === 'format=ics' ? calendar : undefined;
    if (dist.linked(rel, inputs, out.twins)) continue;
    answered++;
    const response = api({ method: 'GET', path, query, headers: {} });
    if (response.status !== 200) throw new Error(`${path}?${query} answered ${response.status}: ${bodyText(response.body)}`);
    out.emit(rel, typeof response.body === 'string' ? response.body : bodyBuffer(response.body), inputs);
  }
  for (const [name, text] of Object.entries(contentSchemaFiles())) out.emit(`schemas/${name}`, text);
  for (const [rel, text] of rendered.files) {
    if (!rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) continue;
    // a hashed copy's twins are copied after the pool, not compressed again
    out.emit(rel, text, undefined, !rendered.hashedCopies.has(rel.slice(AUTOCOMPLETE_DIR.length + 1)));
  }
  return answered;
}

/** Answers and writes every served file but the media copies (dist.served); resolves with the documents answered. */
async function answerServed(options: BuildOptions, clock: Clock, plan: Plan, rendered: Rendered, dist: StagedDist): Promise<number> {
  // the data files read back from the staging folder as the server reads them (trusted: this build
  // hashed them, or the ledger proved them), but those still in memory (the offsets: no read back);
  // the manifest as made (written last); lazy: a list page reads the rows alone
  const disk = directorySource(dist.staging);
  const memory = memorySource(rendered.files, dist.staging);
  const dataset = datasetFrom({ ...disk, trusted: true, bytes: (rel) => (rendered.files.has(rel) ? memory : disk).bytes(rel) }, { lazy: true, manifest: rendered.manifest });
  // no work limit: the build answers each file once (events.ics holds every event up to its cap)
  const api = createApi(dataset, { cacheLimits: { entries: 0, bytes: 0 }, workLimit: Infinity });
  await clock.nextPhase('load dataset', 'answer pages');
  // Every event is on one page, so the rows measure the pages' volume before they exist. The
  // levels follow the whole volume though only the first pages get twins (pageHasTwins).
  const { twins } = rendered;
  // one thread writes every file answered: a second creating files in the same folder added CPU, not speed
  const pool = compressionPool(twins ?? 0, 1, (await plan.directory?.job.compressed) ?? undefined, { dir: dist.staging });
  if (twins !== null) rendered.manifest.precompressed = { compressor: COMPRESSOR, volume: twins };
  const emit = (rel: string, content: string | Uint8Array, inputs?: string, compress = true) => {
    const measure = typeof content === 'string' ? content.length : content.byteLength;
    // a page's body is on a pooled block: given back once written and copied, for the next page
    const release = typeof content !== 'string' && isPooled(content) ? () => releaseBuffer(content) : undefined;
    const how = { volume: compress ? twins : null, measure, inputs, served: true };
    // hashed on the pool's thread where none is known and no previous file can be proven by its bytes (a page answered anew)
    const sha = rendered.manifest.files[rel] === undefined && (inputs !== undefined || dist.ledger === null) ? null : shaIn(rendered.manifest, rel, content);
    if (sha !== null && dist.carried(rel, sha, how)) return release?.();
    // written by the pool's thread, with its twins: creating a file costs this thread more than answering it
    pool.place(rel, content, compress && twins !== null, release, sha === null ? (made) => dist.record(rel, made, how) : undefined, dist.spares.pick(measure));
  };
  const out = { pool, twins, emit };
  const envelope = { baseUrl: plan.baseUrl, site: plan.state.site };
  let documents: number;
  try {
    await answerPages(options, api, out, rendered, dist, envelope);
    documents = answerDocuments(api, out, rendered, dist, envelope);
    dataset.close();
    await clock.nextPhase('answer pages', 'compress');
    await pool.finish();
    copyTwins(dist.staging, rendered.hashedCopies, AUTOCOMPLETE_DIR);
  } catch (e) {
    // its threads write into the staging folder: finished before it is removed
    await pool.finish().catch(() => undefined);
    throw e;
  }
  await clock.nextPhase('compress', 'copy media');
  return documents;
}

/** Resolves with the documents answered (not linked). */
export async function publishStage(options: BuildOptions, clock: Clock, plan: Plan, rendered: Rendered, dist: StagedDist): Promise<number> {
  const documents = await answerServed(options, clock, plan, rendered, dist);
  const { manifest } = rendered;
  if (rendered.autocompleteData) {
    // made on its thread while the pages were answered: written, and listed in the manifest, its
    // build id made again (nothing answered before reads the file, and an answer's bytes do not
    // depend on the build id: only its headers do)
    dist.data(AUTOCOMPLETE_DATA_FILE, await rendered.autocompleteData);
    manifest.files = sortedRecord([...Object.entries(manifest.files), [AUTOCOMPLETE_DATA_FILE, dist.digests.get(AUTOCOMPLETE_DATA_FILE)!]]);
    manifest.build_id = buildIdOf(manifest);
  }
  const { served, staging } = dist;
  // the routing rules list the files made so far; the media copies have rules of their own
  const publicFiles = [...served.keys()].filter(isPublicFile).sort();
  const mediaFiles = copyMediaFiles(plan.state.media, staging, served);
  await clock.nextPhase('copy media', 'manifest');
  writeFiles(staging, routingFiles(manifest, options.upstream ?? DEFAULT_UPSTREAM, { files: publicFiles, media: mediaFiles }));
  if (options.edge) writeFiles(staging, await (await import('../../deploy/edge-bundle.ts')).edgeFiles(staging, manifest));
  manifest.public_files = sortedRecord(served);
  const changes = changesBetween(previousPublicFiles(plan.previous ?? aulaManifest(dist.out)), manifest.public_files);
  const manifestJson = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFiles(staging, new Map([['manifest.json', manifestJson], [CHANGES_FILE, `${JSON.stringify(changes, null, 2)}\n`]]));
  await clock.nextPhase('manifest', 'carry over');
  const files = dist.carryOver();
  await clock.nextPhase('carry over', 'swap');
  // the next build's event state, bound to the manifest written (none where no state is kept)
  const recordState = (ledgerFile: string) => {
    const path = eventStatePath(ledgerFile);
    if (rendered.stateRows === null) unlinkQuietly(path);
    else writeEventState(path, nextEventState(plan.state, plan, rendered.stateRows, manifestJson));
  };
  await dist.swapIn(files, manifest.precompressed, options.onWarning, recordState);
  clock.phase('swap');
  return documents;
}
