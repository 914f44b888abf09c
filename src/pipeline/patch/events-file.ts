// The new events.jsonl of a patch, made on a worker thread while the patch goes on: the previous
// file's runs of unchanged rows are copied through one reused chunk, the new rows written between
// them, and every byte hashed on the way. At 100k events that is ~230 MB read, written and hashed
// (~1 s of one core) which neither holds the bytes in memory nor blocks this thread.
import { Worker } from 'node:worker_threads';

/** A piece of the new file: bytes of the previous file [begin, end), or bytes given. */
export type Segment = { begin: number; end: number } | { bytes: Uint8Array };

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const { from, to, segments } = workerData;
const hash = createHash('sha256');
const chunk = Buffer.allocUnsafe(8 << 20);
let input = -1;
let output = -1;
let bytes = 0;
try {
  input = fs.openSync(from, 'r');
  output = fs.openSync(to, 'wx');
  const put = (buffer, n) => {
    for (let done = 0; done < n; ) done += fs.writeSync(output, buffer, done, n - done);
    hash.update(n === buffer.length ? buffer : buffer.subarray(0, n));
    bytes += n;
  };
  for (const s of segments) {
    if (s.bytes) {
      put(Buffer.from(s.bytes.buffer, s.bytes.byteOffset, s.bytes.byteLength), s.bytes.byteLength);
      continue;
    }
    for (let at = s.begin; at < s.end; ) {
      const n = fs.readSync(input, chunk, 0, Math.min(chunk.length, s.end - at), at);
      if (n === 0) throw new Error('the previous events.jsonl is shorter than proven');
      put(chunk, n);
      at += n;
    }
  }
  parentPort.postMessage({ sha: hash.digest('hex'), bytes });
} catch (e) {
  parentPort.postMessage({ error: String((e && e.message) || e) });
} finally {
  if (input >= 0) fs.closeSync(input);
  if (output >= 0) fs.closeSync(output);
}
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
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the events.jsonl thread exited (${code})`)));
  });
}
