// The entry of every worker thread (start-thread.ts): loads the thread module named by its
// workerData and answers each message with what the module's `answer` returns, in order. An answer
// made at once is posted before the next message is taken, so that messages not yet answered wait
// in the port, serialized, not in this thread's heap.
import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadData, ThreadModule } from './start-thread.ts';

const { module: href, once } = workerData as ThreadData;
const module = (await import(href)) as ThreadModule<unknown, unknown>;
/** the answers still being made, in order (a module whose `answer` is async) */
let queue: Promise<void> | null = null;
/** Posts an answer (its buffers handed over: ThreadModule.transfer); a thread that answers once then closes its port, so it ends (its answer still delivered first). */
const post = (answer: unknown) => {
  parentPort!.postMessage(answer, module.transfer?.(answer));
  if (once) parentPort!.close();
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
