// Where the bytes of the event rows (the concatenation of their parts, dist-paths.ts) come from
// when an answer needs them: in memory (the build, the edge worker, tests), where a read is a
// view, or from the part files (file-rows.ts, `aula serve`).
export interface RowSource {
  readonly byteLength: number;
  /** true when reads are views of memory (free), false when each read is a system call */
  readonly inMemory: boolean;
  /** bytes [at, at + length): a view in memory, else a fresh buffer the caller may keep */
  read(at: number, length: number): Buffer;
  /** copies bytes [at, at + length) into `target` at `offset` */
  readInto(target: Uint8Array, offset: number, at: number, length: number): void;
  /** releases what the source holds open; later reads throw */
  close?(): void;
  /**
   * A buffer of `length` bytes for an answer the rows are read into (file sources: from a pool
   * the server gives back to once the answer is written, see store/read/page-buffers.ts).
   */
  allocate?(length: number): Buffer;
  /**
   * Copies `count` byte ranges into `target`: range k is bytes [pieces[3k + 1], + pieces[3k + 2])
   * of the rows, copied to `target` at pieces[3k]; the ranges ascend in the rows and do not
   * overlap. A file source reads ranges near each other with one system call (file-rows.ts).
   */
  readPieces?(target: Uint8Array, pieces: Float64Array, count: number): void;
}

/** RowSource.readPieces, or one readInto per range where the source has none. */
export function readPieces(source: RowSource, target: Uint8Array, pieces: Float64Array, count: number): void {
  if (source.readPieces) {
    source.readPieces(target, pieces, count);
    return;
  }
  for (let k = 0; k < count; k++) source.readInto(target, pieces[3 * k], pieces[3 * k + 1], pieces[3 * k + 2]);
}

export function memoryRows(lines: Buffer): RowSource {
  return {
    byteLength: lines.length,
    inMemory: true,
    read: (at, length) => lines.subarray(at, at + length),
    readInto: (target, offset, at, length) => void lines.copy(target, offset, at, at + length),
  };
}


/**
 * Where each of several consecutive parts starts in their concatenation, and their total at the
 * end: `[0, size0, size0 + size1, …, total]`.
 */
export function partStarts(sizes: readonly number[]): Float64Array {
  const starts = new Float64Array(sizes.length + 1);
  sizes.forEach((size, i) => (starts[i + 1] = starts[i] + size));
  return starts;
}

/** The last part starting at or before `at` (binary search: a dist has up to a hundred parts). */
export function partAt(starts: Float64Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Calls `each(part, at, length, done)` for the pieces of bytes [at, at + length) of the
 * concatenation of parts starting at `starts` (partStarts), in order: `at` within the part,
 * `done` the bytes before this piece. A read inside one part (the common page) is one piece.
 */
export function eachPiece(starts: Float64Array, at: number, length: number, each: (part: number, at: number, length: number, done: number) => void): void {
  let done = 0;
  for (let part = partAt(starts, at); done < length; part++) {
    const from = at + done - starts[part];
    const n = Math.min(length - done, starts[part + 1] - starts[part] - from);
    if (n > 0) each(part, from, n, done);
    done += Math.max(n, 0);
  }
}

/** Rows in memory held as parts (fetched one by one): a read inside one part is a view, across two a copy. */
export function partRows(parts: readonly Uint8Array[]): RowSource {
  const buffers = parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));
  if (buffers.length === 1) return memoryRows(buffers[0]);
  return partsOf(buffers.map((b) => b.length), (part) => buffers[part]);
}

/**
 * Rows in memory held as parts of the given sizes, each part's bytes from `part` as a read first
 * reaches it (a source loading per need fetches a part then, store/read/per-need.ts).
 */
export function partsOf(sizes: readonly number[], part: (i: number) => Buffer): RowSource {
  const starts = partStarts(sizes);
  const byteLength = starts[sizes.length];
  const readInto = (target: Uint8Array, offset: number, at: number, length: number) => {
    if (at < 0 || length < 0 || at + length > byteLength) throw new RangeError(`bytes ${at}+${length} outside the event rows (${byteLength} bytes)`);
    eachPiece(starts, at, length, (i, from, n, done) => void part(i).copy(target, offset + done, from, from + n));
  };
  return {
    byteLength,
    inMemory: true,
    read(at, length) {
      if (at < 0 || length < 0 || at + length > byteLength) throw new RangeError(`bytes ${at}+${length} outside the event rows (${byteLength} bytes)`);
      let view: Buffer | null = null;
      eachPiece(starts, at, length, (i, from, n) => {
        if (n === length) view = part(i).subarray(from, from + n);
      });
      if (view) return view;
      const out = Buffer.allocUnsafe(length);
      readInto(out, 0, at, length);
      return out;
    },
    readInto,
  };
}

/**
 * Rows held as parts of the given sizes, bytes [from, to) of part `i` from `span(i, from, to)`
 * (a part read in parts, per-need.ts: only the spans read are fetched): a read inside one part
 * is that span, across two a copy.
 */
export function spansOf(sizes: readonly number[], span: (i: number, from: number, to: number) => Uint8Array): RowSource {
  const starts = partStarts(sizes);
  const byteLength = starts[sizes.length];
  const inBounds = (at: number, length: number) => {
    if (at < 0 || length < 0 || at + length > byteLength) throw new RangeError(`bytes ${at}+${length} outside the event rows (${byteLength} bytes)`);
  };
  const readInto = (target: Uint8Array, offset: number, at: number, length: number) => {
    inBounds(at, length);
    eachPiece(starts, at, length, (i, from, n, done) => target.set(span(i, from, from + n), offset + done));
  };
  return {
    byteLength,
    inMemory: true,
    read(at, length) {
      inBounds(at, length);
      let view: Uint8Array | null = null;
      eachPiece(starts, at, length, (i, from, n) => {
        if (n === length) view = span(i, from, from + n);
      });
      if (view !== null) {
        const v: Uint8Array = view;
        return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      }
      const out = Buffer.allocUnsafe(length);
      readInto(out, 0, at, length);
      return out;
    },
    readInto,
  };
}

/**
 * The parts as one buffer when they are consecutive views of one buffer (the build's and `aula
 * dev`'s, cut from the rows made in one piece): a view, no copy. Else null (parts held apart).
 */
export function joinedView(parts: readonly Uint8Array[]): Buffer | null {
  const first = parts[0];
  let end = first.byteOffset + first.byteLength;
  const adjacent = parts.every((p, i) => i === 0 || (p.buffer === first.buffer && p.byteOffset === end && ((end += p.byteLength), true)));
  return adjacent ? Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset) : null;
}
