// A thread module for start-thread.test.ts that answers once and ends: its answer is the next number.
export function answer(given: number): number {
  return given + 1;
}

export const once = true;
