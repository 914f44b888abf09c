// Entry point of the event rows' load check thread. rows-verifier.ts starts it before it knows
// the job (so it boots meanwhile), then sends the open descriptors and the job in one message:
// checks them and posts the verdict once, then ends (nothing else keeps it alive).
import { parentPort } from 'node:worker_threads';
import type { RowsJob } from '../store/read/rows-job.ts';
import { checkRows } from './rows-check.ts';

parentPort!.once('message', async ({ fds, job }: { fds: number[]; job: RowsJob }) => {
  // an error rejects the check through the worker's 'error' event
  parentPort!.postMessage({ verdict: await checkRows(fds, job) });
});
