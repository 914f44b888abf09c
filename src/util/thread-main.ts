// The entry of every worker thread (start-thread.ts): loads the thread module named by its
// workerData and answers each message with what the module's `answer` returns, in order. An answer
// made at once is posted before the next message is taken, so that messages not yet answered wait
// in the port, serialized, not in this thread's heap.
import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadModule } from './start-thread.ts';

const module = (await import(workerData as string)) as ThreadModule<unknown, unknown>;
/** the answers still being made, in order (a module whose `answer` is async) */
let queue: Promise<void> | null = null;
/** Posts an answer; a module that answers once then closes its port, so the thread ends (its answer still delivered first). */
const post = (answer: unknown) => {
  parentPort!.postMessage(answer);
  if (module.once) parentPort!.close();
};
parentPort!.on('message', (message: unknown) => {
  if (queue === null) {
    const answer = module.answer(message);
    if (!(answer instanceof Promise)) return post(answer);
    queue = answer.then(post);
  } else {
    queue = queue.then(async () => post(await module.answer(message)));
  }
  const mine = queue;
  void mine.then(() => {
    if (queue === mine) queue = null;
  });
});
