// The new dist as it is made, in its staging folder: each file written as it comes, or linked
// from the previous dist where the previous build's ledger proves it is what this build would
// write (publish/dist-ledger.ts) — a file's key (its bytes' SHA-256, or its inputs' key) to the
// stored file, or the file made and stored. Without a cache there is no ledger, and every file is
// written: the same code with an empty store.
import type { FileDigest } from '../../store/format/manifest.ts';
import { digestOf } from '../../store/format/manifest.ts';
import { DistLedger, ledgerPath, type Written } from '../ledger/dist-ledger.ts';
import { startThread, threadModule, type Thread } from '../../util/start-thread.ts';
import type { DigestJob } from './digest-thread.ts';
import { join } from 'node:path';
import { writeFiles, writeFilesLater } from './write-files.ts';

type Content = string | Uint8Array;

/** Data files from this size on are digested on the digest thread (digest-thread.ts) when nothing waits for their SHA-256: a smaller one costs less to hash than to hand over. */
const DIGEST_ON_THREAD_BYTES = 1 << 20;

/** What an incremental build took over instead of making it again. */
export interface ReuseStats {
  /** rows taken from the rows cache, rendered anew, and found damaged (rows/render-cache.ts) */
  rows: { reused: number; rendered: number; corrupt: number };
  /** event-list pages linked from the previous dist (not answered) */
  pages: number;
  /** other files (data, documents, autocomplete) linked from the previous dist (not written) */
  files: number;
}

export class StagedDist {
  /** the previous build's record of its dist, when there is a cache and it can be trusted */
  readonly ledger: DistLedger | null;
  readonly ledgerFile: string | null;
  /** every file this build put in place, with its SHA-256 (and inputs' key), for the next ledger */
  readonly written: Written = new Map();
  /** the files the dist serves (deploy/routing-files.ts lists them), by SHA-256: the manifest's public files */
  readonly served = new Map<string, string>();
  /** the data files' digests, as the manifest lists them */
  readonly digests = new Map<string, FileDigest>();
  readonly reused: ReuseStats = { rows: { reused: 0, rendered: 0, corrupt: 0 }, pages: 0, files: 0 };
  /** the files being written on libuv's pool (writeLater): awaited before anything reads them back, and before the folder is removed */
  private readonly pending: Promise<void>[] = [];
  /** the data files being digested on the digest thread, in the order posted (its answers come in that order), and the thread */
  private readonly digesting: ((digest: FileDigest) => void)[] = [];
  private digester: { thread: Thread; failed: Promise<never>; hold(held: boolean): void } | null = null;
  private digestsMade: Promise<void>[] = [];

  /** `ledger`: the previous build's, when the caller has read it already */
  constructor(
    readonly staging: string,
    out: string,
    cache: { dir: string; content: string } | null,
    ledger?: DistLedger,
  ) {
    this.ledgerFile = cache === null ? null : ledgerPath(cache.dir, cache.content, out);
    this.ledger = this.ledgerFile === null ? null : (ledger ?? DistLedger.read(this.ledgerFile, out));
  }

  /**
   * Writes (or links, proven by its bytes) a data file; `later`: collected to be written on libuv's
   * pool (writeLater). Where there is no ledger to prove a link by its bytes, a large file's
   * digest is made on the digest thread (its bytes in shared memory, or read back once written):
   * in `digests` and `written` once `digested()` resolves.
   */
  data(rel: string, content: Content, later?: Map<string, Content>): void {
    const bytes = typeof content === 'string' ? null : content;
    const shared = bytes?.buffer instanceof SharedArrayBuffer;
    // (a file written later is not there to be read back yet: its bytes must be shared)
    if (this.ledger !== null || bytes === null || bytes.byteLength < DIGEST_ON_THREAD_BYTES || (later && !shared)) {
      const digest = digestOf(content);
      this.digests.set(rel, digest);
      this.file(rel, content, digest.sha256, later);
      return;
    }
    // (written here when not later: the thread reads it back from the staging folder)
    if (later) later.set(rel, content);
    else writeFiles(this.staging, new Map([[rel, content]]));
    const job: DigestJob = shared ? { bytes } : { path: join(this.staging, rel), bytes: bytes.byteLength };
    this.digestsMade.push(this.digestOnThread(job).then((digest) => {
      this.digests.set(rel, digest);
      this.written.set(rel, { sha: digest.sha256 });
    }));
  }

  /** Every digest begun on the digest thread made (in `digests` and `written`), the thread ended; rejects when one failed. */
  async digested(): Promise<void> {
    const made = this.digestsMade;
    this.digestsMade = [];
    const digester = this.digester;
    this.digester = null;
    try {
      await Promise.all(made);
    } finally {
      await digester?.thread.terminate();
    }
  }

  /** `job`'s digest, made on the digest thread (started with the first). */
  private digestOnThread(job: DigestJob): Promise<FileDigest> {
    if (this.digester === null) {
      const thread = startThread(threadModule(import.meta.url, 'digest-thread'));
      // (a worker keeps the process alive while a digest is asked of it, not after: a build that
      // fails before digested() must still end)
      const hold = (held: boolean) => (thread as { ref?(): void; unref?(): void })[held ? 'ref' : 'unref']?.();
      const failed = new Promise<never>((_, reject) => {
        thread.on('message', (digest: FileDigest) => {
          this.digesting.shift()?.(digest);
          if (this.digesting.length === 0) hold(false);
        });
        thread.on('error', reject);
        thread.on('exit', () => reject(new Error('the digest thread stopped')));
      });
      failed.catch(() => undefined); // raced below; not an unhandled rejection when nothing waits
      this.digester = { thread, failed, hold };
    }
    const { thread, failed, hold } = this.digester;
    hold(true);
    // (file bytes in shared memory go uncopied; a path is all else that crosses)
    const made = new Promise<FileDigest>((done) => this.digesting.push(done));
    thread.postMessage(job);
    return Promise.race([made, failed]);
  }

  /**
   * Links the previous dist's `rel`, proven by `sha` (with its twins made at `volume`, when given),
   * and a file the dist serves when `served`; false when the ledger does not prove it.
   */
  carried(rel: string, sha: string, how: { volume: number | null; measure?: number; served?: boolean }): boolean {
    if (!this.ledger?.reuse(rel, this.staging, { sha }, how.volume, how.measure)) return false;
    this.reused.files++;
    if (how.served) this.served.set(rel, sha);
    this.written.set(rel, how.measure === undefined ? { sha } : { sha, measure: how.measure });
    return true;
  }

  /** Writes (or links, proven by `sha`) a file whose SHA-256 is known; `later`: as data's. */
  file(rel: string, content: Content, sha: string, later?: Map<string, Content>): void {
    if (this.ledger?.reuse(rel, this.staging, { sha }, null)) this.reused.files++;
    else if (later) later.set(rel, content);
    else writeFiles(this.staging, new Map([[rel, content]]));
    this.written.set(rel, { sha });
  }

  /** Writes files on libuv's pool while this thread goes on (settled: `settled`). */
  writeLater(files: Map<string, Content>): void {
    const writing = writeFilesLater(this.staging, files);
    writing.catch(() => undefined); // awaited by settled(); not an unhandled rejection meanwhile
    this.pending.push(writing);
  }

  /** Every write begun with writeLater done, failed or not; then rejects with the first failure. */
  async settled(): Promise<void> {
    const results = await Promise.allSettled(this.pending);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
