// A large data file an edge isolate reads in parts: its sections are fetched by range when an
// answer first reads them (store/read/sections.ts asks through FileInParts), each block of the
// range checked against its SHA-256 among the file's block sums (FileDigest.blocks: checked against
// the manifest first, assets.ts) before it is taken in. Only the blocks fetched take memory; no byte of a block that has not been checked is
// ever read (`need` throws for it first, and `at` holds only the runs taken in).
import { blockCount, BLOCK_BYTES, BLOCK_SUM_BYTES, type FileDigest } from '../../store/format/manifest.ts';
import { FileNeeded, zeroedAsWritten } from '../../store/read/per-need.ts';
import { readInParts, type FileInParts } from '../../store/read/sections.ts';

/**
 * Runs of blocks not in yet this few blocks apart are fetched as one run, the blocks between
 * them with it: a fetch through the asset binding costs an isolate about as much CPU as the bytes
 * of two or three blocks do, so a gap this small costs less fetched than asked for apart.
 */
export const FETCH_GAP_BLOCKS = 2;

/** What FileNeeded names for blocks `first..last` (inclusive) of `rel`. */
export const partKey = (rel: string, first: number, last: number): string => `${rel}#${first}-${last}`;

/** `rel#first-last` → its parts, or null for a whole file's name (a dist's names hold no `#`). */
export function parsePartKey(key: string): { rel: string; first: number; last: number } | null {
  const m = /^(.*)#(\d+)-(\d+)$/.exec(key);
  return m === null ? null : { rel: m[1], first: Number(m[2]), last: Number(m[3]) };
}

/** Whether `sums` holds the SHA-256 of `bytes` at `at`. */
function sameSum(digest: ArrayBuffer, sums: Uint8Array, at: number): boolean {
  const d = new Uint8Array(digest);
  for (let i = 0; i < BLOCK_SUM_BYTES; i++) if (d[i] !== sums[at + i]) return false;
  return true;
}

/** A block whose bytes are not the ones the manifest lists. */
export class BlockMismatch extends Error {}

/** Bytes fetched in one run, from `start` (a block's first byte). */
interface Run {
  readonly start: number;
  readonly bytes: Uint8Array;
}

export class FileParts implements FileInParts {
  /** a stand-in as long as the file, which Sections reads through this (store/read/sections.ts) */
  readonly bytes: Uint8Array;
  /**
   * each block's run (an index into `runs`), -1 while it is not in and checked: a block is read
   * from one run only, the last that came for it, so a run no block reads from any more is let go
   * of, and there are never more runs than blocks
   */
  private readonly runOf: Int32Array;
  /**
   * the runs taken in: each held as it was fetched, not copied into one buffer (copying into fresh
   * memory costs a page fault a page, as much as the fetch); a few per file, one per round, and
   * those made where a range crossed runs (at)
   */
  private readonly runs: (Run | null)[] = [];
  /** how many blocks read from each run: at 0 the run is let go of and its place reused */
  private readonly blocksOf: number[] = [];

  constructor(
    readonly rel: string,
    private readonly digest: FileDigest,
  ) {
    this.bytes = readInParts(new Uint8Array(zeroedAsWritten(digest.bytes)), this);
    this.runOf = new Int32Array(blockCount(digest.bytes)).fill(-1);
  }

  /**
   * Throws FileNeeded naming the runs to take in for the `ranges` not wholly in yet: each such
   * range's blocks as one run (those in already copied into it when it comes, take), runs at most
   * FETCH_GAP_BLOCKS apart merged. A range is read from one run then, as it is fetched, not from
   * one joined of several (at): a join copies the range into fresh memory, which costs an
   * isolate as much as fetching it. A range wholly in is read as it is.
   */
  need(ranges: readonly (readonly [number, number])[]): void {
    let wanted: [number, number][] | null = null;
    for (const [start, end] of ranges) {
      if (end <= start) continue;
      const first = Math.floor(start / BLOCK_BYTES);
      const last = Math.min(Math.ceil(end / BLOCK_BYTES), this.runOf.length) - 1;
      for (let b = first; b <= last; b++) {
        if (this.runOf[b] === -1) {
          (wanted ??= []).push([first, last]);
          break;
        }
      }
    }
    if (wanted === null) return;
    wanted.sort((a, b) => a[0] - b[0]);
    const missing: string[] = [];
    let [from, to] = wanted[0];
    for (const [first, last] of wanted.slice(1)) {
      if (first <= to + 1 + FETCH_GAP_BLOCKS) to = Math.max(to, last);
      else {
        missing.push(partKey(this.rel, from, to));
        [from, to] = [first, last];
      }
    }
    missing.push(partKey(this.rel, from, to));
    throw new FileNeeded(missing);
  }

  /** The blocks of run `from..to` to fetch: from the first not in to the last not in; null when all are in. */
  fetched(from: number, to: number): [first: number, last: number] | null {
    let first = from;
    while (first <= to && this.runOf[first] !== -1) first++;
    if (first > to) return null;
    let last = to;
    while (this.runOf[last] !== -1) last--;
    return [first, last];
  }

  /**
   * Bytes [start, end), every block of which is in (need): a view of the run its first block is
   * read from when that run holds them all, or else of one made of its blocks' runs (joined once:
   * its blocks are read from it from then on).
   */
  at(start: number, end: number): Uint8Array {
    if (end <= start) return new Uint8Array(0);
    const first = Math.floor(start / BLOCK_BYTES);
    const last = Math.ceil(end / BLOCK_BYTES) - 1;
    const held = first < this.runOf.length && this.runOf[first] !== -1 ? this.runs[this.runOf[first]]! : null;
    if (held !== null && end <= held.start + held.bytes.byteLength) return held.bytes.subarray(start - held.start, end - held.start);
    const [from, until] = this.range(first, last);
    const joined = new Uint8Array(until - from);
    for (let b = first; b <= last; b++) {
      const [bs, be] = this.range(b, b);
      const run = b < this.runOf.length && this.runOf[b] !== -1 ? this.runs[this.runOf[b]]! : undefined;
      if (run === undefined) throw new Error(`${this.rel}: bytes ${start}–${end} asked for before they are in`);
      joined.set(run.bytes.subarray(bs - run.start, be - run.start), bs - from);
    }
    this.hold({ start: from, bytes: joined }, first, last);
    return joined.subarray(start - from, end - from);
  }

  /** Blocks `first..last` read from `run` from now on; a run no block reads from any more is let go of. */
  private hold(run: Run, first: number, last: number): void {
    let at = this.blocksOf.indexOf(0);
    if (at === -1) at = this.runs.push(null) - 1;
    this.runs[at] = run;
    this.blocksOf[at] = last - first + 1;
    for (let b = first; b <= last; b++) {
      const before = this.runOf[b];
      if (before !== -1 && --this.blocksOf[before] === 0) this.runs[before] = null;
      this.runOf[b] = at;
    }
  }

  /** The runs held and their bytes (what the isolate holds of the file). */
  held(): { runs: number; bytes: number } {
    let runs = 0;
    let bytes = 0;
    for (const run of this.runs) if (run !== null) [runs, bytes] = [runs + 1, bytes + run.bytes.byteLength];
    return { runs, bytes };
  }

  /** The byte range of blocks `first..last`. */
  range(first: number, last: number): [start: number, end: number] {
    return [first * BLOCK_BYTES, Math.min((last + 1) * BLOCK_BYTES, this.digest.bytes)];
  }

  /**
   * Takes in blocks `first..last` from `body` (their bytes, `range(first, last)` of the file):
   * each checked against its sum in `sums` (the file's block sums, checked against the manifest)
   * first; throws BlockMismatch naming the first that is not.
   */
  take(first: number, last: number, body: Uint8Array, sums: Uint8Array): Promise<void> {
    return this.takeRun(first, last, body.byteOffset % 8 === 0 ? body : body.slice(), [first, last], sums);
  }

  /**
   * Takes in blocks `from..to` as one run, `run` (their bytes, `range(from, to)` of the file, at
   * an offset a multiple of 8 in its buffer): blocks `fetched` (fetched, as `fetched()` named
   * them) are checked against `sums` as take checks them; the others, in and checked already, are
   * copied into it from their runs.
   */
  async takeRun(from: number, to: number, run: Uint8Array, [first, last]: readonly [number, number], sums: Uint8Array): Promise<void> {
    const [start, end] = this.range(from, to);
    if (run.byteLength !== end - start) throw new BlockMismatch(`blocks ${from}–${to} are ${run.byteLength} bytes, manifest.json says ${end - start}`);
    if (sums.byteLength !== this.runOf.length * BLOCK_SUM_BYTES) throw new BlockMismatch(`its block sums are ${sums.byteLength} bytes, not ${this.runOf.length * BLOCK_SUM_BYTES}`);
    const digests = await Promise.all(
      Array.from({ length: last - first + 1 }, (_, i) => {
        const [bs, be] = this.range(first + i, first + i);
        return crypto.subtle.digest('SHA-256', run.subarray(bs - start, be - start));
      }),
    );
    for (let i = 0; i < digests.length; i++) {
      const b = first + i;
      if (!sameSum(digests[i], sums, b * BLOCK_SUM_BYTES)) throw new BlockMismatch(`block ${b} does not match its listed SHA-256`);
    }
    for (let b = from; b <= to; b++) {
      if (b >= first && b <= last) continue;
      const held = this.runOf[b] === -1 ? null : this.runs[this.runOf[b]]!;
      if (held === null) throw new Error(`${this.rel}: block ${b} copied into a run before it is in`);
      const [bs, be] = this.range(b, b);
      run.set(held.bytes.subarray(bs - held.start, be - held.start), bs - start);
    }
    this.hold({ start, bytes: run }, from, to);
  }
}
