// The dist ledger: per file the last build wrote into an out folder, its SHA-256, its inputs' key,
// the size its compression levels were picked by, and the identity (dev, ino, size, mtime, ctime)
// of it and its .gz/.br as they stood after the swap. Any change to a file moves its ctime, which
// no user call sets back, so a file with the recorded identity holds the recorded bytes: a later
// build hard-links it (with its twins; copies it, checked, where the file system makes no hard
// links: carry-over.ts) instead of making it again. A ledger of another aula or out
// folder, or damaged, is not used. File: writeSealed(AULALEDGER\n [identity, out]\n, JSON).
import { unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compressionLevels, LEVEL_POLICY } from '../../deploy/precompress.ts';
import { cacheIdentity } from '../cache/keys.ts';
import { distCacheFile } from '../cache/cache-folder.ts';
import { makeFolders } from '../../util/make-folders.ts';
import { CACHE_FILE_MOST, identityOf, readSealedValue, unlinkQuietly, writeSealed } from '../cache/cache-file.ts';
import { sortedRecord } from './changes.ts';
import { LinkOrCopy } from './carry-over.ts';

const head = (out: string) => `AULALEDGER\n${JSON.stringify([cacheIdentity(), resolve(out)])}\n`;
/** What made the twins: compressors' output differs between versions, so twins are linked only from the same. */
export const COMPRESSOR = `zlib ${process.versions.zlib}, brotli ${process.versions.brotli ?? '?'}, ${LEVEL_POLICY}`;

export interface LedgerEntry {
  sha: string;
  inputs?: string;
  /** the size its compression levels were chosen by, as the pool measured it */
  measure?: number;
  /** identities of the file, and of its twins when it had them */
  id: string;
  gz?: string;
  br?: string;
}

interface LedgerFile {
  /** how the twins were made (absent: no twins) */
  precompressed?: { compressor: string; volume: number };
  files: Record<string, LedgerEntry>;
}

export const ledgerPath = (cacheDir: string, content: string, out: string) => distCacheFile(cacheDir, content, out);

/**
 * The identities of every file `written` names (and its twins) in the staging folder before the
 * swap: those `linked` as proven (no lstat), the rest lstat'ed when in `present` (the folder's list).
 */
export function stagedIdentities(staging: string, written: Written, linked: ReadonlyMap<string, string> = new Map(), present?: ReadonlySet<string>): Map<string, string> {
  const staged = new Map<string, string>();
  for (const rel of written.keys()) {
    for (const name of [rel, `${rel}.gz`, `${rel}.br`]) {
      const id = linked.get(name) ?? (present === undefined || present.has(name) ? identityOf(join(staging, name)) : null);
      if (id !== null) staged.set(name, id);
    }
  }
  return staged;
}

/** All but the ctime agree: removing the former dist's hard link moves the ctime alone; an edit moves the mtime. */
function unchangedSince(before: string | undefined, now: string | null): now is string {
  if (before === undefined || now === null) return false;
  return before.slice(0, before.lastIndexOf(':')) === now.slice(0, now.lastIndexOf(':'));
}

/** What proves a file what this build would write: the same inputs key, or the same SHA-256. */
type Proof = { inputs: string } | { sha: string };

export class DistLedger {
  /** folders of the staging tree made already */
  private readonly folders = new Set<string>();
  /** each file linked (or copied) into the staging folder (twins included), by the identity it is proven by */
  readonly linked = new Map<string, string>();
  /** how files are put in the staging folder; the carry-over goes on by the same decision */
  readonly links = new LinkOrCopy();

  private constructor(
    private readonly out: string,
    private readonly data: LedgerFile,
  ) {}

  /** The ledger at `path` for `out`, or null when there is none or it cannot be trusted. */
  static read(path: string, out: string): DistLedger | null {
    const data = readSealedValue(path, head(out), CACHE_FILE_MOST, true) as LedgerFile | null;
    return typeof data?.files === 'object' && data.files !== null ? new DistLedger(resolve(out), data) : null;
  }

  entry(rel: string): LedgerEntry | undefined {
    return Object.hasOwn(this.data.files, rel) ? this.data.files[rel] : undefined;
  }

  get precompressed(): { compressor: string; volume: number } | undefined {
    return this.data.precompressed;
  }

  /** Whether `rel` (or a twin, judged by its file) is known to differ from the previous build's. */
  differs(rel: string, written: Written): boolean {
    const base = rel.endsWith('.gz') || rel.endsWith('.br') ? rel.slice(0, -3) : null;
    const file = base !== null && this.entry(base)?.gz !== undefined ? base : rel;
    const [now, then] = [written.get(file), this.entry(file)];
    return now !== undefined && then !== undefined && now.sha !== then.sha;
  }

  /**
   * Links the previous dist's `rel` into `staging` when proven what this build would write, with
   * its twins when `volume` is given and they are what the pool would make (copied where there are
   * no hard links). Null: nothing linked, and the caller makes the file.
   */
  reuse(rel: string, staging: string, proof: Proof, volume: number | null, measure?: number): LedgerEntry | null {
    const entry = this.wouldReuse(rel, proof, volume, measure);
    if (!entry) return null;
    const from = join(this.out, rel);
    const to = join(staging, rel);
    this.folder(dirname(to));
    // the file and, at a volume, its twins, with their identities (a copy is checked by the file's SHA-256)
    const files: [string, string][] = volume === null ? [['', entry.id]] : [['', entry.id], ['.gz', entry.gz!], ['.br', entry.br!]];
    const made: string[] = [];
    try {
      // each was just proven a regular file by its identity
      for (const [ext, id] of files) {
        const staged = this.links.place(`${from}${ext}`, `${to}${ext}`, id, ext === '' ? entry.sha : undefined);
        if (staged === null) throw changedWhileBuilt(rel);
        made.push(`${to}${ext}`);
        this.linked.set(`${rel}${ext}`, staged);
      }
    } catch {
      for (const path of made) unlinkSync(path);
      for (const [ext] of files) this.linked.delete(`${rel}${ext}`);
      return null;
    }
    return entry;
  }

  private folder(dir: string): void {
    if (this.folders.has(dir)) return;
    makeFolders(dir);
    this.folders.add(dir);
  }

  /** The entry reuse would link `rel` (with its twins at `volume`) by, else null: by `{ sha }` and no volume, whether the previous dist's `rel` holds those bytes. */
  wouldReuse(rel: string, proof: Proof, volume: number | null, measure?: number): LedgerEntry | null {
    const entry = this.entry(rel);
    if (!entry) return null;
    if ('inputs' in proof ? entry.inputs !== proof.inputs : entry.sha !== proof.sha) return null;
    const from = join(this.out, rel);
    if (identityOf(from) !== entry.id) return null;
    if (volume !== null) {
      const then = this.data.precompressed;
      const size = measure ?? entry.measure;
      if (!then || then.compressor !== COMPRESSOR || size === undefined || entry.measure === undefined) return null;
      const now = compressionLevels(size, volume);
      const before = compressionLevels(entry.measure, then.volume);
      if (size !== entry.measure || now.gzip !== before.gzip || now.brotli !== before.brotli) return null;
      if (!entry.gz || !entry.br || identityOf(`${from}.gz`) !== entry.gz || identityOf(`${from}.br`) !== entry.br) return null;
    }
    return entry;
  }
}

/** What the build knows of each file it wrote: rel → SHA-256, inputs key, size measure. */
export type Written = Map<string, { sha: string; inputs?: string; measure?: number }>;

/**
 * Records the swapped-in dist's files. One changed since `staged` was taken is left out: somebody
 * wrote into the dist, and recording its identity would prove their bytes aula's. Failing to write
 * is no error: the next build proves nothing from it.
 */
export function writeLedger(path: string, out: string, written: Written, precompressed: { compressor: string; volume: number } | undefined, staged: ReadonlyMap<string, string>): void {
  const files = new Map<string, LedgerEntry>();
  const current = (name: string) => {
    const before = staged.get(name);
    const id = before === undefined ? null : identityOf(join(out, name));
    return unchangedSince(before, id) ? id : null;
  };
  for (const [rel, what] of written) {
    const id = current(rel);
    if (id === null) continue;
    // (a field left undefined is no field of the JSON)
    const entry: LedgerEntry = { ...what, id };
    const gz = current(`${rel}.gz`);
    const br = current(`${rel}.br`);
    if (precompressed && gz !== null && br !== null) Object.assign(entry, { gz, br });
    files.set(rel, entry);
  }
  settleTimestamps([...files.values()]);
  let json: string;
  try {
    json = JSON.stringify({ files: sortedRecord(files), precompressed });
  } catch {
    // longer than a string may be (V8's limit): no ledger, and the next build proves nothing by a former one
    unlinkQuietly(path);
    return;
  }
  writeSealed(path, head(out), [Buffer.from(json)]);
}

/**
 * File times come from a coarse clock: a change within the tick of a file's last change would keep
 * its ctime. So the ledger is written once the clock is past the newest change's tick.
 */
const SETTLE_MS = 50;

function settleTimestamps(entries: readonly LedgerEntry[]): void {
  // an identity ends with the ctime in ns
  const ctimeMs = (id: string | undefined) => (id === undefined ? 0 : Number(BigInt(id.slice(id.lastIndexOf(':') + 1)) / 1_000_000n));
  let newest = 0;
  for (const e of entries) newest = Math.max(newest, ctimeMs(e.id), ctimeMs(e.gz), ctimeMs(e.br));
  const wait = newest + SETTLE_MS - Date.now();
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(wait, SETTLE_MS));
}

export const changedWhileBuilt = (rel: string) => new Error(`${rel} of the previous dist changed while the build ran; build again`);
