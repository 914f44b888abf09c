// The dist ledger: what the last build into an out folder wrote there, kept in the build cache —
// per file its SHA-256, the key of the inputs it was made of (event-list pages, data files), the
// size measure its compression levels were picked by, and the identity of the file and of its
// .gz/.br twins as they stood after the swap (device, inode, size, mtime and ctime in ns).
//
// A later build proves a previous file unchanged by that identity: any write, truncation, touch,
// chmod or replacement of the file changes its ctime (which no user call can set back), so a file
// whose identity is the recorded one holds the recorded bytes. Such a file — a page whose rows and
// envelope have the same key, a data file with the same SHA-256 — is hard-linked into the new dist
// (with its twins) instead of being answered, written, hashed or compressed again. Anything that
// does not match, a ledger of another aula or out folder, a damaged ledger, is simply not used.
//
// File: AULALEDGER\n <checksum of the JSON, hex>\n <JSON> (cache-file.ts writeSealed)
import { linkSync, lstatSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compressionLevels } from '../../deploy/precompress.ts';
import { cacheFile, cacheIdentity } from '../cache/build-cache.ts';
import { COMPRESSOR } from './compressed-reuse.ts';
import { runOnThread, threadModule } from '../../util/start-thread.ts';
import { makeFolders } from '../../util/make-folders.ts';
import { CACHE_TEXT_MOST, readSealed, writeSealed } from '../cache/cache-file.ts';

const MAGIC = 'AULALEDGER\n';
const TWINS = ['.gz', '.br'] as const;

export interface LedgerEntry {
  /** SHA-256 (hex) of the file */
  sha: string;
  /** the key of what the file was made of, when the build knows one */
  inputs?: string;
  /** the size its compression levels were chosen by (string length or byte length, as the pool measured it) */
  measure?: number;
  /** identities of the file, and of its twins when it had them */
  id: string;
  gz?: string;
  br?: string;
}

interface LedgerFile {
  identity: string;
  out: string;
  /** how the twins were made (absent: no twins) */
  precompressed?: { compressor: string; volume: number };
  files: Record<string, LedgerEntry>;
}

/** The ledger of one out folder built from one content folder. */
export const ledgerPath = (cacheDir: string, content: string, out: string) => cacheFile(cacheDir, content, 'dist', 'json', out);

/** A regular file's identity, or null (absent, a link, a folder). */
export function identityOf(path: string): string | null {
  try {
    // (no throw where there is no file: most pages have no .gz/.br, and a throw costs more than the lstat)
    const s = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return s?.isFile() ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : null;
  } catch {
    return null;
  }
}

/**
 * The identities of every file `written` names (and its .gz/.br) in the staging folder, before the
 * swap; those `linked` from the previous dist by the identity it proved them by (no lstat: a
 * patch build links nearly all of its files). `present`: the staging folder's files as listed
 * (listFiles), when the caller has them: a name not among them is not lstat'ed (most pages have
 * no twins, and a build over the state writes few files of its own).
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

/**
 * The same file, unchanged since `before` was taken: all but the ctime agree. The ctime moves
 * without any change of the bytes when the former dist's hard link to the file is removed (the
 * link count changes); an edit moves the mtime.
 */
function unchangedSince(before: string | undefined, now: string | null): now is string {
  if (before === undefined || now === null) return false;
  return before.slice(0, before.lastIndexOf(':')) === now.slice(0, now.lastIndexOf(':'));
}

/** What a file of the new dist is proven to be by (one of them). */
export interface Proof {
  inputs?: string;
  sha?: string;
}

export class DistLedger {
  /** folders of the staging tree made already (a page folder holds thousands of files) */
  private readonly folders = new Set<string>();
  /** links reuseLater proved, from and to one after another, not yet handed to a thread */
  private pending: string[] = [];
  /**
   * The identity each file linked into the staging folder was proven by (twins included): its
   * identity as staged, but for the ctime a link moves (stagedIdentities need not lstat it).
   */
  readonly linked = new Map<string, string>();

  private constructor(
    private readonly out: string,
    private readonly data: LedgerFile,
  ) {}

  /** The ledger at `path` for `out`, or null when there is none or it cannot be trusted. */
  static read(path: string, out: string): DistLedger | null {
    try {
      const json = readSealed(path, MAGIC, CACHE_TEXT_MOST)?.toString('utf8');
      if (json === undefined) return null;
      const data = JSON.parse(json) as LedgerFile;
      if (data.identity !== cacheIdentity() || data.out !== resolve(out) || typeof data.files !== 'object' || data.files === null) return null;
      return new DistLedger(resolve(out), data);
    } catch {
      return null;
    }
  }

  /** The recorded entry of `rel`, if any (what the previous build wrote there). */
  entry(rel: string): LedgerEntry | undefined {
    return Object.hasOwn(this.data.files, rel) ? this.data.files[rel] : undefined;
  }

  /** How the previous dist's twins were made, if it had them. */
  get precompressed(): { compressor: string; volume: number } | undefined {
    return this.data.precompressed;
  }

  /**
   * Whether `rel` (or its .gz/.br twin) is known to differ from the previous build's: `written`
   * holds the SHA-256 of what this build wrote there, and the previous build recorded another.
   * (Twins of other bytes are other bytes: a compressed file decompresses to one text.)
   */
  differs(rel: string, written: Written): boolean {
    const base = rel.endsWith('.gz') || rel.endsWith('.br') ? rel.slice(0, -3) : null;
    // a twin's file is the one it was made of, when the previous build recorded twins of that one
    const twinOf = base === null ? undefined : this.entry(base);
    const file = twinOf?.gz !== undefined ? base! : rel;
    const now = written.get(file);
    const then = this.entry(file);
    return now !== undefined && then !== undefined && now.sha !== then.sha;
  }

  /** Whether the previous dist's `rel` is proven (by its identity) to hold the bytes of SHA-256 `sha`. */
  proves(rel: string, sha: string): boolean {
    return this.proven(rel, { sha }, null) !== null;
  }

  /**
   * Links the previous dist's `rel` into `staging` when it is proven to be what this build would
   * write (`proof`: the same inputs key or the same SHA-256), with its .gz/.br when `volume` is
   * given (precompressing) and the twins are what the pool would make now. Returns the entry, or
   * null having linked nothing.
   */
  reuse(rel: string, staging: string, proof: Proof, volume: number | null, measure?: number): LedgerEntry | null {
    const made: string[] = [];
    let links;
    try {
      links = this.prove(rel, staging, proof, volume, measure);
      if (!links) return null;
      // each was just proven a regular file (not a link) by its identity: linked without another lstat
      for (let i = 0; i < links.pairs.length; i += 2) {
        linkSync(links.pairs[i], links.pairs[i + 1]);
        made.push(links.pairs[i + 1]);
      }
    } catch {
      for (const path of made) unlinkSync(path);
      for (const ext of ['', ...TWINS]) this.linked.delete(`${rel}${ext}`);
      return null;
    }
    return links.entry;
  }

  /** Whether reuse would link `rel` (its proof, identity and twins checked), linking nothing. */
  wouldReuse(rel: string, proof: Proof, volume: number | null, measure?: number): boolean {
    return this.proven(rel, proof, volume, measure) !== null;
  }

  /**
   * As reuse, proven the same way on this thread, but the links are only queued: linkQueued()
   * makes them on a worker thread while this one goes on (the list pages and their twins are
   * a link call per file of the dist). The file is in `staging` once that has resolved.
   */
  reuseLater(rel: string, staging: string, proof: Proof, volume: number | null, measure?: number): LedgerEntry | null {
    const links = this.prove(rel, staging, proof, volume, measure);
    if (!links) return null;
    this.pending.push(...links.pairs);
    return links.entry;
  }

  /** As proven; then its folder in `staging` made, its links noted, and the links to make: from and to, one after another. */
  private prove(rel: string, staging: string, proof: Proof, volume: number | null, measure?: number): { entry: LedgerEntry; pairs: string[] } | null {
    const entry = this.proven(rel, proof, volume, measure);
    if (!entry) return null;
    const from = join(this.out, rel);
    const to = join(staging, rel);
    this.folder(dirname(to));
    this.linked.set(rel, entry.id);
    if (volume !== null && entry.gz !== undefined && entry.br !== undefined) {
      this.linked.set(`${rel}.gz`, entry.gz);
      this.linked.set(`${rel}.br`, entry.br);
    }
    return { entry, pairs: (volume === null ? [''] : ['', ...TWINS]).flatMap((ext) => [`${from}${ext}`, `${to}${ext}`]) };
  }

  /**
   * Makes the links queued by reuseLater on a worker thread. Settles once the thread has ended:
   * rejects with the first failure (the links after it are not made, so the caller gives up on
   * the staging folder as a whole).
   */
  linkQueued(): Promise<void> {
    const pairs = this.pending;
    this.pending = [];
    return pairs.length === 0 ? Promise.resolve() : linkOnWorker(pairs);
  }

  private folder(dir: string): void {
    if (this.folders.has(dir)) return;
    makeFolders(dir);
    this.folders.add(dir);
  }

  /** The entry of `rel` when the previous file (and its twins, with `volume`) is proven to be what this build would write. */
  private proven(rel: string, proof: Proof, volume: number | null, measure?: number): LedgerEntry | null {
    const entry = this.entry(rel);
    if (!entry) return null;
    if (proof.inputs !== undefined ? entry.inputs !== proof.inputs : entry.sha !== proof.sha) return null;
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

/** Hard-links each `from` (even indexes) to the `to` after it, on a worker thread. */
export async function linkOnWorker(pairs: readonly string[]): Promise<void> {
  await runOnThread<null>(threadModule(import.meta.url, 'link-thread'), pairs, 'the link thread stopped before it finished');
}

/** What the build knows of each file it wrote: rel → SHA-256, inputs key, size measure. */
export type Written = Map<string, { sha: string; inputs?: string; measure?: number }>;

/**
 * Records the files of the swapped-in dist `out` (after every link and rename, so the identities
 * are final). A file that is gone or not a regular file is left out, and so is one that changed
 * since `staged` (stagedIdentities) was taken: somebody wrote into the dist between the swap and
 * now, and recording its identity beside the SHA-256 of what aula wrote would prove their bytes
 * to be aula's in every later build. Failing to write is no error: the next build just proves
 * nothing from it.
 */
export function writeLedger(path: string, out: string, written: Written, precompressed: { compressor: string; volume: number } | undefined, staged: ReadonlyMap<string, string>): void {
  const files: Record<string, LedgerEntry> = {};
  const current = (name: string) => {
    const before = staged.get(name);
    // (a name not staged is not lstat'ed: most pages have no twins)
    const id = before === undefined ? null : identityOf(join(out, name));
    return unchangedSince(before, id) ? id : null;
  };
  for (const [rel, what] of [...written].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const id = current(rel);
    if (id === null) continue;
    const entry: LedgerEntry = { sha: what.sha, id };
    if (what.inputs !== undefined) entry.inputs = what.inputs;
    if (what.measure !== undefined) entry.measure = what.measure;
    const gz = current(`${rel}.gz`);
    const br = current(`${rel}.br`);
    if (precompressed && gz !== null && br !== null) Object.assign(entry, { gz, br });
    files[rel] = entry;
  }
  settleTimestamps(Object.values(files));
  const data: LedgerFile = { identity: cacheIdentity(), out: resolve(out), files };
  if (precompressed) data.precompressed = precompressed;
  writeSealed(path, MAGIC, [Buffer.from(JSON.stringify(data))]);
}

/**
 * File times come from a coarse clock (one tick is a few ms): a change made within the same tick
 * as a file's last change would leave its ctime as it was. So the ledger is written only once
 * the clock is past the tick of the newest change recorded: any later change then gets a later
 * ctime. (A wait of at most SETTLE_MS, and only when a file changed that recently.)
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

/** The error of a build that finds a file of the previous dist other than the ledger proved it (changed while the build ran). */
export const changedWhileBuilt = (rel: string) => new Error(`${rel} of the previous dist changed while the build ran; build again`);
