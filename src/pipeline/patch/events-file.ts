// The new event parts of a patch (the parts whose rows changed), made on a worker thread while the
// patch goes on: the previous parts' runs of unchanged rows are copied through a few reused
// chunks, the new rows written between them, and every byte hashed on the way. A changed title
// is one part (~10 MB at 100k events), not the ~230 MB of all the rows; rows added or removed
// shift the rows after them, so every part from the first change on is written (as one file was).
import { Worker } from 'node:worker_threads';

/**
 * A piece of a new part: bytes [begin, end) of the previous parts' concatenation (the offsets'
 * positions), or bytes given.
 */
export type Segment = { begin: number; end: number } | { bytes: Uint8Array };

/** A part to write: the new file (which must not exist) and its pieces in order. */
export interface PartJob {
  to: string;
  segments: Segment[];
}

/** The previous parts, in order, and their sizes (proven by the ledger). */
export interface PreviousParts {
  paths: readonly string[];
  sizes: readonly number[];
}

// Chunks are filled (old bytes read straight into them, new bytes copied), hashed here and
// written by libuv's threads at their place in the file, three in flight: the writes' kernel
// copies run beside the hashing instead of after it.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const { previous, jobs } = workerData;
const CHUNK = 8 << 20;
const chunks = [0, 1, 2].map(() => ({ buffer: Buffer.allocUnsafe(CHUNK), writing: Promise.resolve() }));
const starts = [0];
for (const size of previous.sizes) starts.push(starts[starts.length - 1] + size);
const inputs = previous.paths.map(() => -1);
let output = -1;
let hash;
let position = 0;
let current = 0;
let used = 0;
const input = (part) => (inputs[part] >= 0 ? inputs[part] : (inputs[part] = fs.openSync(previous.paths[part], 'r')));
const writeAt = (fd, buffer, n, at) => new Promise((resolve, reject) => {
  const next = (done) => {
    if (done >= n) return resolve();
    fs.write(fd, buffer, done, n - done, at + done, (error, written) => (error ? reject(error) : next(done + written)));
  };
  next(0);
});
const flush = async () => {
  if (used === 0) return;
  const chunk = chunks[current];
  hash.update(used === CHUNK ? chunk.buffer : chunk.buffer.subarray(0, used));
  chunk.writing = writeAt(output, chunk.buffer, used, position);
  position += used;
  current = (current + 1) % chunks.length;
  used = 0;
  await chunks[current].writing; // the next chunk is free once its last write is done
};
const part = async (job) => {
  output = fs.openSync(job.to, 'wx');
  hash = createHash('sha256');
  position = 0;
  for (const s of job.segments) {
    if (s.bytes) {
      const bytes = Buffer.from(s.bytes.buffer, s.bytes.byteOffset, s.bytes.byteLength);
      for (let at = 0; at < bytes.length; ) {
        const n = Math.min(bytes.length - at, CHUNK - used);
        bytes.copy(chunks[current].buffer, used, at, at + n);
        used += n;
        at += n;
        if (used === CHUNK) await flush();
      }
      continue;
    }
    // the previous part holding byte \`at\` (a run of old rows may span two of them)
    let p = 0;
    for (let at = s.begin; at < s.end; ) {
      while (p < previous.paths.length && starts[p + 1] <= at) p++;
      if (p >= previous.paths.length) throw new Error('the previous event parts are shorter than proven');
      const want = Math.min(CHUNK - used, s.end - at, starts[p + 1] - at);
      const n = fs.readSync(input(p), chunks[current].buffer, used, want, at - starts[p]);
      if (n === 0) throw new Error('a previous event part is shorter than proven');
      used += n;
      at += n;
      if (used === CHUNK) await flush();
    }
  }
  await flush();
  await Promise.all(chunks.map((c) => c.writing));
  const fd = output;
  output = -1;
  fs.closeSync(fd);
  return { sha: hash.digest('hex'), bytes: position };
};
const run = async () => {
  const made = [];
  for (const job of jobs) made.push(await part(job));
  return { parts: made };
};
// told only once every file is closed (and nothing is closed under a write)
run().then(
  (made) => made,
  (e) => ({ error: String((e && e.message) || e) }),
).then(async (result) => {
  await Promise.allSettled(chunks.map((c) => c.writing));
  for (const fd of inputs) if (fd >= 0) fs.closeSync(fd);
  if (output >= 0) fs.closeSync(output);
  parentPort.postMessage(result);
});
`;

/**
 * Writes each job's part from its segments, reading the previous parts; resolves with each
 * part's SHA-256 (hex) and length, in the jobs' order; rejects on any failure.
 */
export function writeEventParts(previous: PreviousParts, jobs: readonly PartJob[]): Promise<{ sha: string; bytes: number }[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { previous, jobs } });
    worker.once('message', (m: { parts: { sha: string; bytes: number }[] } | { error: string }) => {
      if ('error' in m) reject(new Error(m.error));
      else resolve(m.parts);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the event parts' thread exited (${code})`)));
  });
}
