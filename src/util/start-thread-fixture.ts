// A thread module for start-thread.test.ts: answers a number with the next, and where it ran; a
// path it links to a name beside it (a missing one throws the file system's error).
import { linkSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

export function answer(given: number | string): { answer: number; mainThread: boolean } | null {
  if (typeof given === 'string') {
    linkSync(given, `${given}-link`);
    return null;
  }
  return { answer: given + 1, mainThread: isMainThread };
}
