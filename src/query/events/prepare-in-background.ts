// The filter indexes of a table built right after the server starts (and after each reload),
// one step per event-loop turn (a timer each): no request pays for a lazy build (0.5 s for the first
// `teaser__icontains` at 100k events), and requests arriving meanwhile wait for one step at
// most, never for the whole build. After each step the build rests as long as the step took, so
// under load it takes at most half of the process's time and requests keep the other half.
import type { EventTable } from '../../store/format/event-table.ts';
import { indexesFor } from './indexes/table-indexes.ts';

export interface BackgroundBuild {
  /** resolves when every index is built, or the build was stopped or failed */
  readonly done: Promise<void>;
  /** longest single step so far, in ms: how long a request may have waited behind the build */
  readonly longestStepMs: number;
  /** stops before the next step (a replaced dataset) */
  stop(): void;
}

export function prepareInBackground(table: EventTable, onError: (error: Error) => void = () => {}): BackgroundBuild {
  const steps = indexesFor(table).prepareSteps();
  let next = 0;
  let stopped = false;
  let longest = 0;
  let finish: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const run = () => {
    if (stopped || next >= steps.length) return finish();
    const started = performance.now();
    try {
      if (steps[next]() !== true) next++;
    } catch (e) {
      // a step that fails is retried by the first request that needs its index, which then
      // answers with what is wrong; the background build has nobody to answer
      onError(e as Error);
      return finish();
    }
    const took = performance.now() - started;
    longest = Math.max(longest, took);
    // Timers run once per loop turn, before the poll phase answers what arrived: one step, then
    // requests. A step that took a while is followed by a rest as long. (Not an unref'd
    // setImmediate: that does not wake a loop blocked in poll, and an idle server would stall.)
    next_(took);
  };
  const next_ = (ms: number) => void setTimeout(run, ms).unref();
  next_(0);
  return {
    done,
    get longestStepMs() {
      return longest;
    },
    stop() {
      stopped = true;
    },
  };
}
