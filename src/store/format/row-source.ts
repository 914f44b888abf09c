// Where the bytes of events.jsonl come from when an answer needs them: in memory (the build, the
// edge worker, tests), where a read is a view, or from the file (file-rows.ts, `aula serve`).
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
}

export function memoryRows(lines: Buffer): RowSource {
  return {
    byteLength: lines.length,
    inMemory: true,
    read: (at, length) => lines.subarray(at, at + length),
    readInto: (target, offset, at, length) => void lines.copy(target, offset, at, at + length),
  };
}

