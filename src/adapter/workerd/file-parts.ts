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
   * the runs taken in: each held as it was fetched, not copied into one buffer (copying into fresh
   * memory costs a page fault a page, as much as the fetch); a few per file, one per round
   */
  private readonly runs: Run[] = [];

  constructor(
    readonly rel: string,
    private readonly digest: FileDigest & { blocks: string },
  ) {
    this.bytes = readInParts(new Uint8Array(zeroedAsWritten(digest.bytes)), this);
    this.checked = new Uint8Array(blockCount(digest.bytes));
  }

  /**
   * Throws FileNeeded naming, for every range of `ranges` with a block not in yet, all its blocks
   * (overlapping ones merged): a range is then read from the one run that came for it, not from
   * pieces joined by a copy.
   */
  need(ranges: readonly (readonly [number, number])[]): void {
    let wanted: [number, number][] | null = null;
    for (const [start, end] of ranges) {
      if (end <= start) continue;
      const first = Math.floor(start / BLOCK_BYTES);
      const last = Math.min(Math.ceil(end / BLOCK_BYTES), this.checked.length) - 1;
      for (let b = first; b <= last; b++) {
        if (this.checked[b] === 0) {
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
      if (first <= to + 1) to = Math.max(to, last);
      else {
        missing.push(partKey(this.rel, from, to));
        [from, to] = [first, last];
      }
    }
    missing.push(partKey(this.rel, from, to));
    throw new FileNeeded(missing);
  }

  /**
   * Bytes [start, end), every block of which is in (need): a view of a run that holds them all,
   * or of one made of the runs that hold its pieces (joined once, where no run holds it all).
   */
  at(start: number, end: number): Uint8Array {
    if (end <= start) return new Uint8Array(0);
    const { runs } = this;
    for (const run of runs) if (run.start <= start && end <= run.start + run.bytes.byteLength) return run.bytes.subarray(start - run.start, end - run.start);
    const first = Math.floor(start / BLOCK_BYTES);
    const last = Math.ceil(end / BLOCK_BYTES) - 1;
    const [from, until] = this.range(first, last);
    const joined = new Uint8Array(until - from);
    for (let b = first; b <= last; b++) {
      const [bs, be] = this.range(b, b);
      const run = this.checked[b] === 1 ? runs.find((r) => r.start <= bs && be <= r.start + r.bytes.byteLength) : undefined;
      if (run === undefined) throw new Error(`${this.rel}: bytes ${start}–${end} asked for before they are in`);
      joined.set(run.bytes.subarray(bs - run.start, be - run.start), bs - from);
    }
    runs.push({ start: from, bytes: joined });
    return joined.subarray(start - from, end - from);
  }

  /** The byte range of blocks `first..last`. */
  range(first: number, last: number): [start: number, end: number] {
    return [first * BLOCK_BYTES, Math.min((last + 1) * BLOCK_BYTES, this.digest.bytes)];
  }

  /**
   * Takes in blocks `first..last` from `body` (their bytes, `range(first, last)` of the file):
   * each checked against its listed sum first; throws BlockMismatch naming the first that is not.
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
    this.runs.push({ start, bytes: body.byteOffset % 8 === 0 ? body : body.slice() });
    this.checked.fill(1, first, last + 1);
  }
}
