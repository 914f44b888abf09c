// The new event parts of a patch (the parts whose rows changed), made on a worker thread while the
// patch goes on: the previous parts' runs of unchanged rows are copied through a few reused
// chunks, the new rows written between them, and every byte hashed on the way. A changed title
// is one part, not all the rows; rows added or removed shift the rows after them, so every part
// from the first change on is written.
import { runOnThread, threadModule } from '../../util/start-thread.ts';
import type { Segment } from '../../store/write/event-data.ts';

export type { Segment } from '../../store/write/event-data.ts';

/** A part to write: the new file (which must not exist) and its pieces in order. */
export interface PartJob {
  to: string;
  segments: Segment[];
}

/** The thread's answer: each part's SHA-256 (hex) and length, or why it failed. */
export type PartsAnswer = { parts: { sha: string; bytes: number }[] } | { error: string };

/** The previous parts, in order, and their sizes (proven by the ledger). */
export interface PreviousParts {
  paths: readonly string[];
  sizes: readonly number[];
}

/**
 * Writes each job's part from its segments, reading the previous parts; resolves with each
 * part's SHA-256 (hex) and length, in the jobs' order; rejects on any failure.
 */
export async function writeEventParts(previous: PreviousParts, jobs: readonly PartJob[]): Promise<{ sha: string; bytes: number }[]> {
  const m = await runOnThread<PartsAnswer>(threadModule(import.meta.url, 'events-file-worker'), { previous, jobs }, "the event parts' thread stopped");
  if ('error' in m) throw new Error(m.error);
  return m.parts;
}
