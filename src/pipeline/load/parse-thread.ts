// Entry point of a parse thread (parse-pool.ts starts them): answers each batch it is sent with
// parseBatch, handing the answer's buffers over rather than copying them.
import { parentPort, workerData } from 'node:worker_threads';
import { keepSlicedStrings } from '../../content/records.ts';
import type { RenderContext } from '../../render/event.ts';
import { parseBatch, rowerOf, RowsFile, type ParseBatch, type Rower } from './parse-batch.ts';

// every parse made here is serialized before the main thread sees it
keepSlicedStrings();
// the context the events' rows are rendered against, sent before the batches that ask for rows
let rower: Rower | null = null;
// The rows go to the build's rows file in the making when the pool gave one (rows-scratch.ts),
// each batch's entries where the thread claims room; the answer says where. They wait there, not
// in the build's heap, until the build puts them in list order.
const shared = workerData as { rowsFd: number | null; rowsEnd: SharedArrayBuffer | null } | undefined;
const rowsFile = new RowsFile(shared?.rowsFd ?? null, shared?.rowsEnd ? new BigInt64Array(shared.rowsEnd) : null);
parentPort!.on('message', (message: ParseBatch | { context: RenderContext }) => {
  if ('context' in message) {
    rower = rowerOf(message.context);
    return;
  }
  const answer = parseBatch(message, rower);
  const { rows } = answer;
  rowsFile.take(rows);
  // (fresh ArrayBuffers of their own: parseBatch's, and the rows' JSON once take() wrote or copied it)
  const buffers = [answer.bytes, answer.sums, ...(rows ? [rows.starts, rows.keys, rows.made, ...(rows.json instanceof Uint8Array ? [rows.json] : [])] : [])];
  parentPort!.postMessage(answer, buffers.map((b) => b.buffer as ArrayBuffer));
});
