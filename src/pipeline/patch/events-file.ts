// The new events.jsonl of a patch, made on a worker thread while the patch goes on: the previous
// file's runs of unchanged rows are copied through a few reused chunks, the new rows written
// between them, and every byte hashed on the way. At 100k events that is ~230 MB read, written
// and hashed (~1 s of one core) which neither holds the bytes in memory nor blocks this thread.
import { Worker } from 'node:worker_threads';

/** A piece of the new file: bytes of the previous file [begin, end), or bytes given. */
export type Segment = { begin: number; end: number } | { bytes: Uint8Array };

// Chunks are filled (old bytes read straight into them, new bytes copied), hashed here and
// written by libuv's threads at their place in the file, three in flight: the writes' kernel
// copies run beside the hashing instead of after it.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const { from, to, segments } = workerData;
const CHUNK = 8 << 20;
const hash = createHash('sha256');
const chunks = [0, 1, 2].map(() => ({ buffer: Buffer.allocUnsafe(CHUNK), writing: Promise.resolve() }));
let input = -1;
let output = -1;
let position = 0;
let current = 0;
let used = 0;
const writeAt = (buffer, n, at) => new Promise((resolve, reject) => {
  const next = (done) => {
    if (done >= n) return resolve();
    fs.write(output, buffer, done, n - done, at + done, (error, written) => (error ? reject(error) : next(done + written)));
  };
  next(0);
});
const flush = async () => {
  if (used === 0) return;
  const chunk = chunks[current];
  hash.update(used === CHUNK ? chunk.buffer : chunk.buffer.subarray(0, used));
  chunk.writing = writeAt(chunk.buffer, used, position);
  position += used;
  current = (current + 1) % chunks.length;
  used = 0;
  await chunks[current].writing; // the next chunk is free once its last write is done
};
const run = async () => {
  input = fs.openSync(from, 'r');
  output = fs.openSync(to, 'wx');
  for (const s of segments) {
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
    for (let at = s.begin; at < s.end; ) {
      const n = fs.readSync(input, chunks[current].buffer, used, Math.min(CHUNK - used, s.end - at), at);
      if (n === 0) throw new Error('the previous events.jsonl is shorter than proven');
      used += n;
      at += n;
      if (used === CHUNK) await flush();
    }
  }
  await flush();
  await Promise.all(chunks.map((c) => c.writing));
  return { sha: hash.digest('hex'), bytes: position };
};
// told only once both files are closed (and nothing is closed under a write)
run().then(
  (made) => made,
  (e) => ({ error: String((e && e.message) || e) }),
).then(async (result) => {
  await Promise.allSettled(chunks.map((c) => c.writing));
  if (input >= 0) fs.closeSync(input);
  if (output >= 0) fs.closeSync(output);
  parentPort.postMessage(result);
});
`;

/**
 * Writes the new file `to` (which must not exist) from `segments`, reading the previous file
 * `from`; resolves with its SHA-256 (hex) and length, rejects on any failure.
 */
export function writeEventsFile(from: string, to: string, segments: readonly Segment[]): Promise<{ sha: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { from, to, segments } });
    worker.once('message', (m: { sha: string; bytes: number } | { error: string }) => {
      if ('error' in m) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the events.jsonl thread exited (${code})`)));
  });
}
