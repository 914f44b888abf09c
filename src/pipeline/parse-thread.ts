// Entry point of a parse thread (parse-pool.ts starts them): answers each batch it is sent with
// parseBatch, handing the answer's buffers over rather than copying them.
import { parentPort } from 'node:worker_threads';
import { keepSlicedStrings } from '../content/records.ts';
import { parseBatch, type ParseBatch } from './parse-batch.ts';

// every parse made here is serialized before the main thread sees it
keepSlicedStrings();
parentPort!.on('message', (batch: ParseBatch) => {
  const answer = parseBatch(batch);
  // (fresh ArrayBuffers of their own: parseBatch never answers with a slice of a shared one)
  parentPort!.postMessage(answer, [answer.bytes.buffer as ArrayBuffer, answer.sums.buffer as ArrayBuffer]);
});
