// Entry point of a parse thread (parse-pool.ts starts them): answers each batch it is sent with
// parseBatch, handing the answer's buffers over rather than copying them.
import { parentPort, workerData } from 'node:worker_threads';
import { keepSlicedStrings } from '../content/records.ts';
import type { RenderContext } from '../render/event.ts';
import { parseBatch, rowerOf, RowsFile, type ParseBatch, type Rower } from './parse-batch.ts';

// every parse made here is serialized before the main thread sees it
keepSlicedStrings();
// the context the events' rows are rendered against, sent before the batches that ask for rows
let rower: Rower | null = null;
// The rows go to this thread's scratch file when the pool gave it one (parse-pool.ts), one batch's
// after the other; the answer says where. They wait there, not in the build's heap, until the
// build puts them in list order.
const rowsFile = new RowsFile((workerData as { rowsFd: number | null } | undefined)?.rowsFd ?? null);
parentPort!.on('message', (message: ParseBatch | { context: RenderContext }) => {
  if ('context' in message) {
    rower = rowerOf(message.context);
    return;
  }
  const answer = parseBatch(message, rower);
  const { rows } = answer;
  rowsFile.take(rows);
  // (fresh ArrayBuffers of their own: parseBatch never answers with a slice of a shared one)
  const buffers = [answer.bytes, answer.sums, ...(rows ? [rows.starts, rows.keys, rows.made, ...(rows.json instanceof Uint8Array ? [rows.json] : [])] : [])];
  parentPort!.postMessage(answer, buffers.map((b) => b.buffer as ArrayBuffer));
});
