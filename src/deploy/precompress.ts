// Precompression at build time: `.gz`/`.br` files beside the static ones (front servers send them
// as they are, e.g. nginx's gzip_static), compressed on worker threads: a build produces thousands
// of pages, and compressing them (br + gzip, ~1.2 ms a page) on the main thread would serialize it
// after everything else. Workers take files as they are produced and hand back both codings.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { TOP_LEVEL_LIMIT } from '../server/compress.ts';
import { ThreadPool, threadModule } from '../util/start-thread.ts';
import { defaultThreads } from '../util/threads.ts';
import type { Spare } from '../util/spare-files.ts';

/** Text files worth compressing; everything else in dist/ is small or already compact. */
export const PRECOMPRESSED = /\.(?:json|js|ics)$/;

/**
 * The event list's pages get twins only up to this offset (the first 1,000 events: 50 pages at
 * the default page size, every page of a site of up to 1,000 events). Clients reach the list
 * from its first page and follow `next`, so the first pages take nearly all of its requests; a
 * deeper page is compressed by the front server when it is asked for (nginx `gzip on`, a CDN's
 * own compression). Every page changes when an event is added or removed (the count and the
 * offsets shift), so twins of every page would be compressed again by each such build, and
 * they would be two files more per page of a large site. Bounded by events, not pages, so that
 * a larger page size does not make the compressed volume larger.
 */
export const TWINNED_EVENTS = 1000;

/** Whether the event-list page at `offset` gets `.gz`/`.br` twins (TWINNED_EVENTS). */
export function pageHasTwins(offset: number): boolean {
  return offset < TWINNED_EVENTS;
}

/**
 * Brotli 11 takes ~65 ms for a 47 KB page and brotli 6 ~0.7 ms for 9 % more bytes: a dist
 * with thousands of pages (100k events = 5,000 pages, 5.5 minutes at 11) gets 6.
 */
const BEST_EFFORT_VOLUME = 4 * 1024 * 1024;

/**
 * Which level policy wrote a dist's .gz/.br (the dist ledger links twins of the previous dist
 * only under the same policy): change it with compressionLevels.
 */
export const LEVEL_POLICY = 'levels 3';

/**
 * The levels a file gets, by its size and the volume of the whole set it belongs to. Beyond the
 * best-effort volume gzip gets 6 as well: on 47 KB pages 9 costs 13 % more time (0.52 vs 0.46 ms)
 * for 0.7 % fewer bytes, and gzip is only the fallback of clients without brotli (brotli keeps
 * 6: its bytes are the ones most clients get). Above the top-level limit gzip gets 5: on the
 * directory's indexes (12 and 48 MB at 200,000 objects) it wrote the bytes 6 writes to within
 * 0.2 % in 54–72 % of the time (0.39 s against 0.72 s for minisearch.json).
 */
export function compressionLevels(size: number, volume: number): { gzip: number; brotli: number } {
  const small = size <= TOP_LEVEL_LIMIT;
  const best = volume <= BEST_EFFORT_VOLUME;
  return { gzip: !small ? 5 : best ? 9 : 6, brotli: !small ? 5 : best ? 11 : 6 };
}

/** The levels of a file above the top-level limit, whatever the volume (the directory's indexes). */
export const LARGE_FILE_LEVELS = compressionLevels(TOP_LEVEL_LIMIT + 1, Number.MAX_SAFE_INTEGER);

/** `<path>.gz` and `<path>.br` for every compressible file, at the best ratio the volume allows. */
export async function precompress(files: ReadonlyMap<string, string | Uint8Array>): Promise<Map<string, Uint8Array>> {
  let volume = 0;
  for (const [path, c] of files) if (PRECOMPRESSED.test(path)) volume += typeof c === 'string' ? c.length : c.byteLength;
  const pool = compressionPool(volume);
  for (const [path, c] of files) pool.add(path, c);
  return pool.finish();
}

/** A file compressed ahead of the pool (the directory indexes, on the thread that made them). */
export interface Precompressed {
  content: string | Uint8Array;
  gzip: number;
  brotli: number;
  gz: Uint8Array;
  br: Uint8Array;
}

/** The size the levels are chosen by (a string's length, as the pool measures it). */
export function sizeOf(content: string | Uint8Array): number {
  return typeof content === 'string' ? content.length : content.byteLength;
}

/**
 * Both codings of one file, as the pool's workers make them (compress-worker.ts), and for a
 * thread that has a large file long before the pool runs.
 */
export function compressTwins(content: string | Uint8Array, levels: { gzip: number; brotli: number }): Precompressed {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const gz = gzipSync(bytes, { level: levels.gzip });
  const br = brotliCompressSync(bytes, { params: {
    [constants.BROTLI_PARAM_QUALITY]: levels.brotli,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
  } });
  return { content, ...levels, gz, br };
}

/**
 * Where the pool's twins go: handed to a function on this thread as they come back, or written
 * under `dir` by the worker that made them, so that neither their bytes nor their writes (two per
 * page) come back to this thread.
 */
export type TwinSink = ((path: string, bytes: Uint8Array) => void) | { dir: string };

/** A file to compress (its twins at these levels; none where null), and to write itself too when `own` (and hash, when `hash`). */
export interface Job {
  path: string;
  content: string | Uint8Array;
  gzip: number | null;
  brotli: number | null;
  own?: true;
  hash?: true;
  /** the spare a file placed is written into (util/spare-files.ts) */
  into?: Spare;
}

/** A queued job, and who is told once its content has been copied to a worker. */
interface Queued {
  job: Job;
  posted?: () => void;
}

export interface CompressionPool {
  /**
   * Queues a file; files that are not compressible are skipped. `posted` is called once the pool
   * no longer reads `content` (copied to a worker, or not compressed here at all): the caller may
   * then reuse its memory.
   */
  add(path: string, content: string | Uint8Array, posted?: () => void): void;
  /**
   * Writes the file itself under the sink's folder on a worker (a pool made with a `{ dir }` sink
   * only), with its twins as `add` makes them when `twins`: creating and writing a file costs this
   * thread more than answering a page does. `posted` as add's; `hashed`: given the file's SHA-256
   * (hex), made on the worker, before finish() resolves; `into`: a spare to write it into.
   */
  place(path: string, content: string | Uint8Array, twins: boolean, posted?: () => void, hashed?: (sha: string) => void, into?: Spare): void;
  /** waits for every queued file and stops the workers: `<path>.gz` and `<path>.br` */
  finish(): Promise<Map<string, Uint8Array>>;
  /**
   * Resolves once at most `bytes` handed to the workers are not compressed yet. A producer far
   * faster than the workers awaits it, or every file waits as a copy in a worker's queue.
   */
  settled(bytes: number): Promise<void>;
}

/**
 * `expectedVolume` (bytes) picks the levels up front, so every file of one build gets the same
 * treatment as precompress() would give it. `ready`: files compressed already (by path), taken
 * as they are when the content and the levels are the ones this pool would use.
 */
export function compressionPool(
  expectedVolume: number,
  threads = defaultThreads(),
  ready: ReadonlyMap<string, Precompressed> = new Map(),
  /** given: each result goes there as it is made (and finish() returns none), so none is held */
  sink?: TwinSink,
): CompressionPool {
  const out = new Map<string, Uint8Array>();
  let failed: unknown = null;
  const dir = typeof sink === 'object' ? sink.dir : null;
  const deliver = (path: string, gz: Uint8Array, br: Uint8Array) => {
    if (typeof sink === 'object') {
      // (a file made ahead of the pool, ReadyTwins: written here)
      for (const [twin, bytes] of [[`${path}.gz`, gz], [`${path}.br`, br]] as const) {
        const file = join(sink.dir, twin);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, bytes);
      }
    } else if (sink) {
      sink(`${path}.gz`, gz);
      sink(`${path}.br`, br);
    } else {
      out.set(`${path}.gz`, gz);
      out.set(`${path}.br`, br);
    }
  };
  /** bytes posted to the workers and not answered yet, and who waits for fewer (settled) */
  let queued = 0;
  let settling: { bytes: number; done: () => void }[] = [];
  const answered = (bytes: number) => {
    queued -= bytes;
    const ready = settling.filter((w) => failed !== null || queued <= w.bytes);
    settling = settling.filter((w) => !ready.includes(w));
    for (const w of ready) w.done();
  };
  // Each worker is started when it is given a batch the others are busy with: a patch build
  // compresses one page and a few documents, one batch, and a second worker's start (~30 ms of a
  // core) would be wasted.
  type Result = { path: string; gz: Uint8Array; br: Uint8Array } | { path: string; written: true; sha?: string } | { path: string; failed: { message: string; code?: string; path: string } };
  /** who is given the SHA-256 of a file placed (place's `hashed`), by its path */
  const hashing = new Map<string, (sha: string) => void>();
  const workers = new ThreadPool<unknown, Result[]>(threadModule(import.meta.url, 'compress-worker'), { size: Math.max(1, threads), stopped: 'a compression thread stopped' });
  const take = (results: Result[]) => {
    for (const r of results) {
      try {
        if ('failed' in r) throw Object.assign(new Error(r.failed.message), { code: r.failed.code, path: r.failed.path });
        if (!('written' in r)) deliver(r.path, r.gz, r.br);
        else if (r.sha !== undefined) hashing.get(r.path)?.(r.sha);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  const pending: Promise<void>[] = [];
  let batch: Queued[] = [];
  let batchBytes = 0;

  /** The twins' job of a file at the pool's levels; null where it gets none, or they were made ahead (then delivered here). */
  const twinsJob = (path: string, content: string | Uint8Array): Job | null => {
    if (!PRECOMPRESSED.test(path)) return null;
    const levels = compressionLevels(sizeOf(content), expectedVolume);
    const known = ready.get(path);
    if (known && known.gzip === levels.gzip && known.brotli === levels.brotli && sameContent(known.content, content)) {
      deliver(path, known.gz, known.br);
      return null;
    }
    return { path, content, ...levels };
  };
  const queue = (job: Job, posted?: () => void) => {
    batch.push({ job, posted });
    batchBytes += sizeOf(job.content);
    if (batchBytes >= 1 << 20) flush();
  };

  const blocks = new SharedBlocks();
  const flush = () => {
    if (batch.length === 0) return;
    const bytes = batchBytes;
    queued += bytes;
    const sent = batch;
    batch = [];
    batchBytes = 0;
    const packed = blocks.pack(sent.map((q) => q.job));
    // posted at once (no bound on a worker's queue): the contents are in the shared block, or
    // postMessage copies them before it returns
    const compressed = workers.ask({ jobs: packed.jobs, dir }).then(take, (e: unknown) => void (failed ??= e));
    pending.push(
      compressed.finally(() => {
        packed.done();
        answered(bytes);
      }),
    );
    for (const q of sent) q.posted?.();
  };

  return {
    add(path, content, posted) {
      const job = twinsJob(path, content);
      if (job === null) return posted?.();
      queue(job, posted);
    },
    place(path, content, twins, posted, hashed, into) {
      if (dir === null) throw new Error('compressionPool.place: the pool writes files under a folder only');
      const job = twins ? twinsJob(path, content) : null;
      if (hashed) hashing.set(path, hashed);
      queue({ path, content, gzip: job?.gzip ?? null, brotli: job?.brotli ?? null, own: true, ...(hashed ? { hash: true as const } : {}), ...(into ? { into } : {}) }, posted);
    },
    settled(bytes) {
      if (queued <= bytes || failed !== null) return Promise.resolve();
      return new Promise<void>((done) => settling.push({ bytes, done }));
    },
    async finish() {
      flush();
      await Promise.all(pending);
      await workers.end();
      if (failed) throw failed;
      return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
  };
}

/** Bytes of one shared block: a batch (flushed past 1 MB) of pages fits one. */
const BLOCK_BYTES = 3 << 19;
/** Free blocks kept: as many as the batches COMPRESS_AHEAD lets be in flight (publish-stage.ts). */
const BLOCKS_KEPT = 20;

/**
 * Shared memory a batch's contents are packed into, reused once its worker has answered. A
 * content posted as it is is copied twice (serialized, then into the worker's heap), both copies
 * into memory just mapped, a text is encoded a third time by the worker, and a page's body is
 * copied with the whole block it lies on (store/read/page-buffers.ts); a view of shared memory is
 * posted as it is, and a block's pages, written once, stay mapped for the next batch. A batch too
 * large for a block (a large document or index) gets shared memory of its own, written once here
 * and read in place by the worker.
 */
class SharedBlocks {
  private free: SharedArrayBuffer[] = [];

  /** The jobs with their contents as views of one block (a text as its UTF-8), and what gives the block back once the worker is done with them. */
  pack(jobs: Job[]): { jobs: Job[]; done: () => void } {
    const lengths = jobs.map(({ content }) => (typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength));
    const bytes = lengths.reduce((sum, n) => sum + n, 0);
    if (bytes === 0) return { jobs, done: () => {} };
    const pooled = bytes <= BLOCK_BYTES;
    const block = (pooled ? this.free.pop() : undefined) ?? new SharedArrayBuffer(pooled ? BLOCK_BYTES : bytes);
    let at = 0;
    const packed = jobs.map((job, i) => {
      const view = Buffer.from(block, at, lengths[i]);
      if (typeof job.content === 'string') view.write(job.content);
      else view.set(job.content);
      at += view.byteLength;
      return { ...job, content: view };
    });
    const done = () => {
      if (pooled && this.free.length < BLOCKS_KEPT) this.free.push(block);
    };
    return { jobs: packed, done };
  }
}

function sameContent(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  const bytes = (c: string | Uint8Array) => (typeof c === 'string' ? Buffer.from(c) : Buffer.from(c.buffer, c.byteOffset, c.byteLength));
  return bytes(a).equals(bytes(b));
}
