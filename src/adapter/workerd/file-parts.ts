// A large data file an edge isolate reads in parts: its sections are fetched by range when an
// answer first reads them (store/read/sections.ts asks through FileInParts), each block of the
// range checked against the SHA-256 the manifest lists for it (FileDigest.blocks) before it is
// taken in. Only the blocks fetched take memory; no byte of a block that has not been checked is
// ever read (`need` throws for it first, and `at` holds only the runs taken in).
import { blockCount, BLOCK_BYTES, BLOCK_SUM_CHARS, type FileDigest } from '../../store/format/manifest.ts';
import { FileNeeded, zeroedAsWritten } from '../../store/read/per-need.ts';
import { readInParts, type FileInParts } from '../../store/read/sections.ts';

/** What FileNeeded names for blocks `first..last` (inclusive) of `rel`. */
export const partKey = (rel: string, first: number, last: number): string => `${rel}#${first}-${last}`;

/** `rel#first-last` → its parts, or null for a whole file's name (a dist's names hold no `#`). */
export function parsePartKey(key: string): { rel: string; first: number; last: number } | null {
  const m = /^(.*)#(\d+)-(\d+)$/.exec(key);
  return m === null ? null : { rel: m[1], first: Number(m[2]), last: Number(m[3]) };
}

/** The base64 SHA-256 of bytes (WebCrypto: asynchronous). */
async function sumOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let binary = '';
  for (let i = 0; i < digest.length; i++) binary += String.fromCharCode(digest[i]);
  return btoa(binary);
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
  /** 1 where the block is in and checked */
  private readonly checked: Uint8Array;
  /**
   * the runs taken in, by start: each held as it was fetched, not copied into one buffer (copying
   * into fresh memory costs a page fault a page, as much as the fetch)
   */
  private runs: Run[] = [];

  constructor(
    readonly rel: string,
    private readonly digest: FileDigest & { blocks: string },
  ) {
    this.bytes = readInParts(new Uint8Array(zeroedAsWritten(digest.bytes)), this);
    this.checked = new Uint8Array(blockCount(digest.bytes));
  }

  /** Throws FileNeeded naming every run of blocks of `ranges` not in yet (runs of several ranges merged). */
  need(ranges: readonly (readonly [number, number])[]): void {
    let wanted: Set<number> | null = null;
    for (const [start, end] of ranges) {
      if (end <= start) continue;
      const last = Math.min(Math.ceil(end / BLOCK_BYTES), this.checked.length) - 1;
      for (let b = Math.floor(start / BLOCK_BYTES); b <= last; b++) if (this.checked[b] === 0) (wanted ??= new Set()).add(b);
    }
    if (wanted === null) return;
    const blocks = [...wanted].sort((a, b) => a - b);
    const missing: string[] = [];
    for (let i = 0; i < blocks.length; ) {
      let j = i;
      while (j + 1 < blocks.length && blocks[j + 1] === blocks[j] + 1) j++;
      missing.push(partKey(this.rel, blocks[i], blocks[j]));
      i = j + 1;
    }
    throw new FileNeeded(missing);
  }

  /**
   * Bytes [start, end), every block of which is in (need): a view of the run that holds them, or
   * of one made of the runs they span, joined (once) where they came in different rounds.
   */
  at(start: number, end: number): Uint8Array {
    const { runs } = this;
    // the last run starting at or before `start`
    let lo = 0;
    let hi = runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (runs[mid].start <= start) lo = mid + 1;
      else hi = mid;
    }
    const first = lo - 1;
    const run = runs[first];
    if (run === undefined || start < run.start) throw new Error(`${this.rel}: bytes ${start}–${end} asked for before they are in`);
    if (end <= run.start + run.bytes.byteLength) return run.bytes.subarray(start - run.start, end - run.start);
    // the range goes on into the runs after: they are joined into one
    let last = first;
    while (last + 1 < runs.length && runs[last].start + runs[last].bytes.byteLength === runs[last + 1].start && runs[last].start + runs[last].bytes.byteLength < end) last++;
    const joinedEnd = runs[last].start + runs[last].bytes.byteLength;
    if (joinedEnd < end) throw new Error(`${this.rel}: bytes ${start}–${end} asked for before they are in`);
    const joined = new Uint8Array(joinedEnd - run.start);
    for (let r = first; r <= last; r++) joined.set(runs[r].bytes, runs[r].start - run.start);
    runs.splice(first, last - first + 1, { start: run.start, bytes: joined });
    return joined.subarray(start - run.start, end - run.start);
  }

  /** The byte range of blocks `first..last`. */
  range(first: number, last: number): [start: number, end: number] {
    return [first * BLOCK_BYTES, Math.min((last + 1) * BLOCK_BYTES, this.digest.bytes)];
  }

  /**
   * Takes in blocks `first..last` from `body` (their bytes, `range(first, last)` of the file):
   * each checked against its listed sum first; throws BlockMismatch naming the first that is not.
   * Blocks already in (another answer fetched them meanwhile) are left as they are.
   */
  async take(first: number, last: number, body: Uint8Array): Promise<void> {
    const [start, end] = this.range(first, last);
    if (body.byteLength !== end - start) throw new BlockMismatch(`blocks ${first}–${last} are ${body.byteLength} bytes, manifest.json says ${end - start}`);
    const sums = await Promise.all(
      Array.from({ length: last - first + 1 }, (_, i) => sumOf(body.subarray(i * BLOCK_BYTES, Math.min((i + 1) * BLOCK_BYTES, body.byteLength)))),
    );
    for (let i = 0; i < sums.length; i++) {
      const b = first + i;
      if (sums[i] !== this.digest.blocks.slice(b * BLOCK_SUM_CHARS, (b + 1) * BLOCK_SUM_CHARS)) throw new BlockMismatch(`block ${b} does not match its SHA-256 in manifest.json`);
    }
    // the run as the blocks not in yet (each a block's own start: an aligned view of the body)
    for (let b = first; b <= last; ) {
      if (this.checked[b] === 1) {
        b++;
        continue;
      }
      let to = b;
      while (to < last && this.checked[to + 1] === 0) to++;
      const [from, until] = this.range(b, to);
      this.insert({ start: from, bytes: body.byteOffset === 0 && from === start ? body.subarray(0, until - from) : body.slice(from - start, until - start) });
      this.checked.fill(1, b, to + 1);
      b = to + 1;
    }
  }

  private insert(run: Run): void {
    let at = this.runs.length;
    while (at > 0 && this.runs[at - 1].start > run.start) at--;
    this.runs.splice(at, 0, run);
  }
}
