// Entry point of the event rows' load check thread (rows-verifier.ts starts it with the open
// descriptors and the job as its workerData): checks and posts the verdict once.
import { parentPort, workerData } from 'node:worker_threads';
import type { RowsJob } from '../store/read/rows-job.ts';
import { checkRows } from './rows-check.ts';

const { fds, job } = workerData as { fds: number[]; job: RowsJob };
// an error rejects the check through the worker's 'error' event
parentPort!.postMessage({ verdict: await checkRows(fds, job) });
