// A thread module for start-thread.test.ts: answers a number with the next, where it ran and what
// it was last told; a path it links to a name beside it (a missing one throws the file system's
// error); 'exit' ends its thread unanswered.
import { linkSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';

let told: unknown = null;

export function answer(given: number | string | { tell: unknown }): { answer: number; mainThread: boolean; threadId: number; told: unknown } | null {
  if (given === 'exit') process.exit(3);
  if (typeof given === 'object') {
    told = given.tell;
    return null;
  }
  if (typeof given === 'string') {
    linkSync(given, `${given}-link`);
    return null;
  }
  return { answer: given + 1, mainThread: isMainThread, threadId, told };
}
