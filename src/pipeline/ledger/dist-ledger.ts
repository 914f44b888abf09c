// The dist ledger: per file the last build wrote into an out folder, its SHA-256, its inputs' key,
// the size its compression levels were picked by, and the identity (dev, ino, size, mtime, ctime)
// of it and its .gz/.br as they stood after the swap. Any change to a file moves its ctime, which
// no user call sets back, so a file with the recorded identity holds the recorded bytes: a later
// build links it (write/staged-dist.ts) instead of making it again. A ledger of another aula or out
// folder, or damaged, is not used. File: writeSealed(AULALEDGER\n [identity, out]\n, JSON).
import { join, resolve } from 'node:path';
import { compressionLevels, LEVEL_POLICY } from '../../deploy/precompress.ts';
import { cacheIdentity } from '../cache/keys.ts';
import { CACHE_FILE_MOST, identityOf, readSealedValue, unlinkQuietly, writeSealed } from '../cache/cache-file.ts';
import { sortedRecord } from '../../util/stable-json.ts';

const head = (out: string) => `AULALEDGER\n${JSON.stringify([cacheIdentity(), resolve(out)])}\n`;
/** What made the twins: compressors' output differs between versions, so twins are linked only from the same. */
export const COMPRESSOR = `zlib ${process.versions.zlib}, brotli ${process.versions.brotli ?? '?'}, ${LEVEL_POLICY}`;

/** What the build knows of a file it wrote; `measure`: the size its compression levels were chosen by, as the pool measured it. */
type Made = { sha: string; inputs?: string; measure?: number };
/** What the ledger knows of it besides: the identities of the file, and of its twins when it had them. */
export type LedgerEntry = Made & { id: string; gz?: string; br?: string };
type Precompressed = { compressor: string; volume: number };
/** `precompressed`: how the twins were made (absent: no twins) */
type LedgerFile = { precompressed?: Precompressed; files: Record<string, LedgerEntry> };
export type Written = Map<string, Made>;

export class DistLedger {
  private constructor(
    readonly out: string,
    private readonly files: Record<string, LedgerEntry>,
    readonly precompressed: Precompressed | undefined,
  ) {}

  /** The ledger at `path` for `out`, or null when there is none or it cannot be trusted. */
  static read(path: string, out: string): DistLedger | null {
    const data = readSealedValue(path, head(out), CACHE_FILE_MOST, true) as LedgerFile | null;
    // its seal proves only who wrote it: each entry is checked for what the build reads of it
    const files: unknown = data?.files;
    const sound = typeof files === 'object' && files !== null && Object.values(files).every((e: Partial<LedgerEntry> | null) => typeof e?.sha === 'string' && typeof e.id === 'string');
    return sound ? new DistLedger(resolve(out), data!.files, data!.precompressed) : null;
  }

  entry(rel: string): LedgerEntry | undefined {
    return Object.hasOwn(this.files, rel) ? this.files[rel] : undefined;
  }

  /** Whether `rel` (or a twin, judged by its file) is known to differ from the previous build's. */
  differs(rel: string, written: Written): boolean {
    const base = rel.endsWith('.gz') || rel.endsWith('.br') ? rel.slice(0, -3) : null;
    const file = base !== null && this.entry(base)?.gz !== undefined ? base : rel;
    const [now, then] = [written.get(file), this.entry(file)];
    return now !== undefined && then !== undefined && now.sha !== then.sha;
  }

  /**
   * The entry proving the previous dist's `rel` what this build would write (`proof`: the same
   * SHA-256, or the same inputs' key), with its twins when `volume` is given and they are what the
   * pool would make at it, else null.
   */
  wouldReuse(rel: string, proof: string, volume: number | null, measure?: number): LedgerEntry | null {
    const entry = this.entry(rel);
    if (!entry || (entry.sha !== proof && entry.inputs !== proof)) return null;
    const from = join(this.out, rel);
    if (identityOf(from) !== entry.id) return null;
    if (volume !== null) {
      const then = this.precompressed;
      const size = measure ?? entry.measure;
      if (!then || then.compressor !== COMPRESSOR || size === undefined || size !== entry.measure) return null;
      const [now, before] = [compressionLevels(size, volume), compressionLevels(size, then.volume)];
      if (now.gzip !== before.gzip || now.brotli !== before.brotli) return null;
      if (!entry.gz || !entry.br || identityOf(`${from}.gz`) !== entry.gz || identityOf(`${from}.br`) !== entry.br) return null;
    }
    return entry;
  }
}

/**
 * Records the swapped-in dist's files, given the identities they (and their twins) had in the
 * staging folder before the swap. One the former dist held a hard link to (`shared`) is looked at
 * again: removing that link moves its ctime alone, and one changed otherwise is left out (somebody
 * wrote into the dist: its identity would prove their bytes aula's). Any other keeps its staged
 * identity, which a change since no longer matches. Failing to write is no error.
 */
export function writeLedger(path: string, out: string, written: Written, precompressed: Precompressed | undefined, staged: ReadonlyMap<string, string>, shared: (name: string) => boolean = () => true): void {
  const files = new Map<string, LedgerEntry>();
  const current = (name: string) => {
    const before = staged.get(name);
    if (before !== undefined && !shared(name)) return before;
    const now = before === undefined ? null : identityOf(join(out, name));
    return now !== null && before!.slice(0, before!.lastIndexOf(':')) === now.slice(0, now.lastIndexOf(':')) ? now : null;
  };
  for (const [rel, what] of written) {
    const id = current(rel);
    if (id === null) continue;
    // (a field left undefined is no field of the JSON)
    const [gz, br] = [current(`${rel}.gz`), current(`${rel}.br`)];
    files.set(rel, precompressed && gz !== null && br !== null ? { ...what, id, gz, br } : { ...what, id });
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
