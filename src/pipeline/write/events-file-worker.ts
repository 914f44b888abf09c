// writeEventParts's thread (events-file.ts). Chunks are filled, hashed here and written by libuv's
// threads, three in flight, so the writes' kernel copies run beside the hashing.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Segment } from '../../store/write/event-data.ts';
import type { PartDigest, PartJob, PreviousParts } from './events-file.ts';
import { writeAt } from './write-files.ts';

const CHUNK = 8 << 20;

/** One run's files and chunks, all closed by `close` once no write is under way. */
class PartWriter {
  private readonly chunks = [0, 1, 2].map(() => ({ buffer: Buffer.allocUnsafe(CHUNK), writing: Promise.resolve() }));
  private readonly starts = [0];
  private readonly inputs: number[];
  private output = -1;
  private hash: Hash = createHash('sha256');
  private position = 0;
  private current = 0;
  private used = 0;

  constructor(private readonly previous: PreviousParts) {
    for (const size of previous.sizes) this.starts.push(this.starts[this.starts.length - 1] + size);
    this.inputs = previous.paths.map(() => -1);
  }

  async part(job: PartJob): Promise<PartDigest> {
    this.output = openSync(job.to, 'wx');
    this.hash = createHash('sha256');
    this.position = 0;
    for (const s of job.segments) await this.copy(s);
    await this.flush();
    await Promise.all(this.chunks.map((c) => c.writing));
    const fd = this.output;
    this.output = -1;
    closeSync(fd);
    return { sha: this.hash.digest('hex'), bytes: this.position };
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.chunks.map((c) => c.writing));
    for (const fd of this.inputs) if (fd >= 0) closeSync(fd);
    if (this.output >= 0) closeSync(this.output);
  }

  private input(part: number): number {
    if (this.inputs[part] < 0) this.inputs[part] = openSync(this.previous.paths[part], 'r');
    return this.inputs[part];
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const chunk = this.chunks[this.current];
    this.hash.update(this.used === CHUNK ? chunk.buffer : chunk.buffer.subarray(0, this.used));
    chunk.writing = writeAt(this.output, chunk.buffer, this.used, this.position);
    this.position += this.used;
    this.current = (this.current + 1) % this.chunks.length;
    this.used = 0;
    await this.chunks[this.current].writing; // the next chunk is free once its last write is done
  }

  /** Fills the chunks with a segment: its bytes, or the previous parts' bytes it names, read from them. */
  private async copy(s: Segment): Promise<void> {
    const bytes = 'bytes' in s ? Buffer.from(s.bytes.buffer, s.bytes.byteOffset, s.bytes.byteLength) : null;
    const [begin, end] = 'bytes' in s ? [0, s.bytes.byteLength] : [s.begin, s.end];
    for (let at = begin; at < end; ) {
      const most = Math.min(CHUNK - this.used, end - at);
      const n = bytes ? bytes.copy(this.chunks[this.current].buffer, this.used, at, at + most) : this.read(at, most);
      this.used += n;
      at += n;
      if (this.used === CHUNK) await this.flush();
    }
  }

  /** Reads at most `most` bytes of the previous parts from `at` into the chunk, up to the end of the part holding `at` (a run of old rows may span two). */
  private read(at: number, most: number): number {
    const { starts } = this;
    let p = 0;
    while (p < this.inputs.length && starts[p + 1] <= at) p++;
    if (p >= this.inputs.length) throw new Error('the previous event parts are shorter than proven');
    const n = readSync(this.input(p), this.chunks[this.current].buffer, this.used, Math.min(most, starts[p + 1] - at), at - starts[p]);
    if (n === 0) throw new Error('a previous event part is shorter than proven');
    return n;
  }
}

/** Each job's part, in order; answered (or thrown) once every file is closed. */
export async function answer({ previous, jobs }: { previous: PreviousParts; jobs: PartJob[] }): Promise<PartDigest[]> {
  const writer = new PartWriter(previous);
  try {
    const parts = [];
    for (const job of jobs) parts.push(await writer.part(job));
    return parts;
  } finally {
    await writer.close();
  }
}
