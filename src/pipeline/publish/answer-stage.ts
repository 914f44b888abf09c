// The pages, documents and schemas of the dist, answered by the API core over the data just
// written (read back by the server's own loader, exactly as the server will answer), each written
// as it comes and compressed by the pool's threads meanwhile. A list page whose key (its rows'
// hashes and envelope: render/page-keys.ts) the previous build's ledger proves is linked instead.
import { bodyBuffer, bodyText } from '../../api/body.ts';
import { createApi, type Api } from '../../api/core.ts';
import { EVENT_LIST_PATH } from '../../api/events/list.ts';
import { compressionPool, type CompressionPool } from '../../deploy/precompress.ts';
import { contentSchemas } from '../../docs/content-schemas.ts';
import type { Site } from '../../model/types.ts';
import { datasetFrom } from '../../query/dataset.ts';
import { isPooled, releaseBuffer } from '../../store/read/page-buffers.ts';
import { AUTOCOMPLETE_DIR } from '../../store/format/dist-paths.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { copyTwins } from '../../store/write/hashed-files.ts';
import type { DirectoryJob } from '../directory/directory-job.ts';
import { pageKeys } from '../rows/page-keys.ts';
import type { Rendered } from '../render/render-stage.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { DOCUMENTS, pageFile } from '../write/manifest-of.ts';
import { buildSource } from '../write/build-source.ts';
import type { StagedDist } from '../write/staged-dist.ts';
import { writeFiles } from '../write/write-files.ts';
import { shaIn } from '../write/write-stage.ts';
import { COMPRESSOR, compressedReuse } from '../ledger/compressed-reuse.ts';

/** Bytes of pages handed to the compression threads and not compressed yet, at most. */
const COMPRESS_AHEAD = 16 << 20;

function sizeOf(files: DistFiles, dir: string): number {
  let size = 0;
  for (const [rel, c] of files) if (rel.startsWith(`${dir}/`)) size += typeof c === 'string' ? c.length : c.byteLength;
  return size;
}

/** What answering writes through: every served file by its SHA-256, and the pool compressing them. */
interface Emitter {
  served: Map<string, string>;
  pool: CompressionPool | null;
  emit(rel: string, content: string | Uint8Array, inputs?: string, compress?: boolean): void;
}

function emitter(rendered: Rendered, dist: StagedDist, pool: CompressionPool | null, reuse: ReturnType<typeof compressedReuse> | null, twins: number | null): Emitter {
  const served = new Map<string, string>();
  const emit = (rel: string, content: string | Uint8Array, inputs?: string, compress = true) => {
    const sha = shaIn(rendered.manifest, rel, content);
    const measure = typeof content === 'string' ? content.length : content.byteLength;
    served.set(rel, sha);
    dist.written.set(rel, { sha, inputs, measure });
    // A page's body is on a block of the answers' page pool: given back once written and copied
    // to a compression thread, so that the next page reuses it rather than the GC collecting it.
    const release = typeof content !== 'string' && isPooled(content) ? () => releaseBuffer(content) : undefined;
    if (dist.ledger?.reuse(rel, dist.staging, { sha }, compress ? twins : null, measure)) {
      dist.reused.files++;
      release?.();
      return;
    }
    writeFiles(dist.staging, new Map([[rel, content]]));
    if (compress && pool && !reuse?.(rel, content)) pool.add(rel, content, release);
    else release?.();
  };
  return { served, pool, emit };
}

async function answerPages(options: BuildOptions, api: Api, out: Emitter, rendered: Rendered, dist: StagedDist, envelope: { baseUrl: string; site: Site }, twins: number | null): Promise<void> {
  const { manifest, eventCount, hashes } = rendered;
  const limit = envelope.site.page_size;
  const pageKeyOf = hashes === null ? null : pageKeys(hashes, { ...envelope, limit });
  for (let offset = 0; offset === 0 || offset < eventCount; offset += limit) {
    const rel = pageFile(offset);
    const inputs = pageKeyOf?.(offset);
    const proven = inputs === undefined ? null : dist.ledger?.reuse(rel, dist.staging, { inputs }, twins);
    if (proven && inputs !== undefined) {
      out.served.set(rel, proven.sha);
      dist.written.set(rel, { sha: proven.sha, inputs, measure: proven.measure });
      dist.reused.pages++;
    } else {
      const query = offset === 0 ? '' : `limit=${limit}&offset=${offset}`;
      const response = api({ method: 'GET', path: EVENT_LIST_PATH, query, headers: {} });
      if (response.status !== 200) throw new Error(`page at offset ${offset} answered ${response.status}: ${bodyText(response.body)}`);
      out.emit(rel, bodyBuffer(response.body), inputs);
    }
    options.progress?.('answer pages', offset / limit + 1, manifest.counts.event_list_pages);
    // pages are answered faster than two threads compress them: bounded, so that they do not
    // wait as copies in the threads' queues
    if (!proven) await out.pool?.settled(COMPRESS_AHEAD);
  }
}

function answerDocuments(api: Api, out: Emitter, rendered: Rendered): void {
  for (const [rel, path, query] of DOCUMENTS) {
    const response = api({ method: 'GET', path, query, headers: {} });
    if (response.status !== 200) throw new Error(`${path}?${query} answered ${response.status}: ${bodyText(response.body)}`);
    out.emit(rel, typeof response.body === 'string' ? response.body : bodyBuffer(response.body));
  }
  for (const [name, schema] of Object.entries(contentSchemas())) out.emit(`schemas/${name}`, `${JSON.stringify(schema, null, 2)}\n`);
  for (const [rel, text] of rendered.files) {
    if (!rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) continue;
    // a hashed copy of a file is compressed once: its twins are copied after the pool
    out.emit(rel, text, undefined, !rendered.hashedCopies.has(rel.slice(AUTOCOMPLETE_DIR.length + 1)));
  }
}

/** Answers and writes every served file but the media copies; resolves with them by SHA-256. */
export async function answerStage(
  options: BuildOptions,
  clock: Clock,
  input: { out: string; previous: Manifest | null; baseUrl: string; site: Site; directory: DirectoryJob },
  rendered: Rendered,
  dist: StagedDist,
): Promise<Map<string, string>> {
  const dataset = datasetFrom(buildSource(rendered.files, dist.staging));
  // no work limit: the build answers its documents once (events.ics holds every event up to its cap)
  const api = createApi(dataset, { cacheLimits: { entries: 0, bytes: 0 }, workLimit: Infinity });
  await clock.nextPhase('load dataset', 'answer pages');
  // Every event appears on exactly one page, so the serialized events measure the pages' volume
  // before they exist. Each .gz/.br is written by the thread that made it (or here, made by the
  // directory's), not held until the end.
  const volume = rendered.eventBytes + sizeOf(rendered.files, AUTOCOMPLETE_DIR);
  const pool = options.precompress !== false ? compressionPool(volume, undefined, await input.directory.compressed, { dir: dist.staging }) : null;
  if (pool) rendered.manifest.precompressed = { compressor: COMPRESSOR, volume };
  const reuse = pool ? compressedReuse(input.out, input.previous, dist.staging, volume) : null;
  const twins = pool ? volume : null;
  const out = emitter(rendered, dist, pool, reuse, twins);
  try {
    await answerPages(options, api, out, rendered, dist, { baseUrl: input.baseUrl, site: input.site }, twins);
    answerDocuments(api, out, rendered);
    dataset.events.rows.close();
    await clock.nextPhase('answer pages', 'compress');
    if (pool) {
      writeFiles(dist.staging, await pool.finish());
      copyTwins(dist.staging, rendered.hashedCopies, AUTOCOMPLETE_DIR);
    }
  } catch (e) {
    // its threads write into the staging folder: done before it is removed
    await pool?.finish().catch(() => undefined);
    throw e;
  }
  await clock.nextPhase('compress', 'copy media');
  return out.served;
}
