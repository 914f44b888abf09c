// The entry of every worker thread (start-thread.ts): loads the thread module named by its
// workerData and answers each message with what the module's `answer` returns, in order.
import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadModule } from './start-thread.ts';

const module = (await import(workerData as string)) as ThreadModule<unknown, unknown>;
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (message: unknown) => {
  queue = queue.then(async () => parentPort!.postMessage(await module.answer(message)));
});
