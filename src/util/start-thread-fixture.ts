// A thread module for start-thread.test.ts: answers a number with the next, and where it ran.
import { isMainThread } from 'node:worker_threads';

export function answer(given: number): { answer: number; mainThread: boolean } {
  return { answer: given + 1, mainThread: isMainThread };
}
