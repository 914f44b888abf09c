// SHA-256 of a large buffer on another thread, while this one goes on: a patch must hash the
// whole new events.jsonl (~230 MB at 100k events, ~0.4 s), and has other work meanwhile (the
// column files, the dataset). The bytes are shared, not copied: `sharedBuffer` makes them.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** A buffer of `size` bytes another thread can read without a copy. */
export function sharedBuffer(size: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(Math.max(size, 1)), 0, size);
}

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
parentPort.postMessage(createHash('sha256').update(new Uint8Array(workerData.buffer, workerData.offset, workerData.length)).digest('hex'));
`;

/** Below this, a thread costs more than it saves. */
const ASIDE_BYTES = 16 << 20;

/**
 * The SHA-256 (hex) of `bytes`: on a worker thread when they are shared and large, else here.
 * `bytes` must not change until the promise settles.
 */
export function sha256Aside(bytes: Uint8Array): Promise<string> {
  if (!(bytes.buffer instanceof SharedArrayBuffer) || bytes.byteLength < ASIDE_BYTES) {
    return Promise.resolve(createHash('sha256').update(bytes).digest('hex'));
  }
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(SOURCE, { eval: true, workerData: { buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.byteLength } });
    } catch {
      resolve(createHash('sha256').update(bytes).digest('hex'));
      return;
    }
    worker.once('message', (hex: string) => {
      resolve(hex);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the hashing thread exited (${code})`)));
  });
}
