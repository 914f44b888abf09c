// The new dist in its staging folder: each file linked from the previous dist where the ledger
// proves it is what this build would write, else written. Without a cache there is no ledger:
// the same code with an empty store.
import { digestOf, type FileDigest } from '../../store/format/manifest.ts';
import { DistLedger, ledgerPath, type Written } from '../ledger/dist-ledger.ts';
import { writeFiles, writeFilesLater } from './write-files.ts';

type Content = string | Uint8Array;

/** What a build took from the cache or the previous dist instead of making it again. */
export interface ReuseStats {
  rows: { reused: number; rendered: number; corrupt: number };
  /** event-list pages linked */
  pages: number;
  /** other files linked */
  files: number;
}

export class StagedDist {
  readonly ledger: DistLedger | null;
  readonly ledgerFile: string | null;
  /** every file put in place, for the next ledger */
  readonly written: Written = new Map();
  /** the manifest's public files (served), by SHA-256 */
  readonly served = new Map<string, string>();
  /** the data files' digests, as the manifest lists them */
  readonly digests = new Map<string, FileDigest>();
  readonly reused: ReuseStats = { rows: { reused: 0, rendered: 0, corrupt: 0 }, pages: 0, files: 0 };
  /** writes on libuv's pool: awaited before anything reads them back or the folder is removed */
  private readonly pending: Promise<void>[] = [];

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

  /** Writes (or links, proven by its bytes) a data file; `later`: collected to be written on libuv's pool (writeLater). */
  data(rel: string, content: Content, later?: Map<string, Content>): void {
    const digest = digestOf(content);
    this.digests.set(rel, digest);
    this.file(rel, content, digest.sha256, later);
  }

  /** Links the previous dist's `rel` (with its twins at `volume`) when the ledger proves it by `sha`. */
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

  writeLater(files: Map<string, Content>): void {
    const writing = writeFilesLater(this.staging, files);
    writing.catch(() => undefined); // awaited by settled(); not an unhandled rejection meanwhile
    this.pending.push(writing);
  }

  /** Once every writeLater write has ended: rejects with the first failure. */
  async settled(): Promise<void> {
    const results = await Promise.allSettled(this.pending);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
