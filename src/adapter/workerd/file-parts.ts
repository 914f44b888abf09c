// A large data file an edge isolate reads in parts: its sections are fetched by range when an
// answer first reads them (store/read/sections.ts asks through the PartsGuard), each block of the
// range checked against the SHA-256 the manifest lists for it (FileDigest.blocks) before it is
// copied in. The file's buffer is its full size, but only the blocks fetched take memory; no byte
// of a block that has not been checked is ever read (the guard throws for it first).
import { blockCount, BLOCK_BYTES, BLOCK_SUM_CHARS, type FileDigest } from '../../store/format/manifest.ts';
import { FileNeeded, zeroedAsWritten } from '../../store/read/per-need.ts';
import { readInParts } from '../../store/read/sections.ts';

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

export class FileParts {
  /** the file's bytes: a block's only once checked */
  readonly bytes: Uint8Array;
  /** 1 where the block is in and checked */
  private readonly checked: Uint8Array;

  constructor(
    readonly rel: string,
    private readonly digest: FileDigest & { blocks: string },
  ) {
    this.bytes = readInParts(new Uint8Array(zeroedAsWritten(digest.bytes)), (ranges) => this.guard(ranges));
    this.checked = new Uint8Array(blockCount(digest.bytes));
  }

  /** Throws FileNeeded naming every run of blocks of `ranges` not in yet (runs of several ranges merged). */
  private guard(ranges: readonly (readonly [number, number])[]): void {
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
    this.bytes.set(body, start);
    this.checked.fill(1, first, last + 1);
  }
}
