// Entry point of a parse thread (parse-pool.ts starts them): answers each batch it is sent with
// parseBatch, handing the answer's buffers over rather than copying them.
import { parentPort } from 'node:worker_threads';
import { keepSlicedStrings } from '../content/records.ts';
import type { RenderContext } from '../render/event.ts';
import { parseBatch, rowerOf, type ParseBatch, type Rower } from './parse-batch.ts';

// every parse made here is serialized before the main thread sees it
keepSlicedStrings();
// the context the events' rows are rendered against, sent before the batches that ask for rows
let rower: Rower | null = null;
parentPort!.on('message', (message: ParseBatch | { context: RenderContext }) => {
  if ('context' in message) {
    rower = rowerOf(message.context);
    return;
  }
  const answer = parseBatch(message, rower);
  // (fresh ArrayBuffers of their own: parseBatch never answers with a slice of a shared one)
  const buffers = [answer.bytes, answer.sums, ...(answer.rows ? [answer.rows.json, answer.rows.starts, answer.rows.keys, answer.rows.made] : [])];
  parentPort!.postMessage(answer, buffers.map((b) => b.buffer as ArrayBuffer));
});
