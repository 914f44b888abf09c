// The stats of many files (the event files: one per event, most of them), taken on two threads:
// the largest part of the search for changes over the event state (pipeline/load/state-load.ts). A worker
// thread takes shares of them while this one does, as git's index preload does with its lstats.
// This module is that thread's too (`answer`): an error thrown there reaches the caller with its
// code and paths (a worker's error crosses as an Error with its own fields).
import { runOnThread, threadModule } from './start-thread.ts';
import { fileStat, putStat, STAT_FIELDS } from './file-stats.ts';
import { namesIn, sharedNames, type Names } from './shared-names.ts';

/** Fewer files than this are stat'ed here alone: a thread's start would cost more than it saves. */
const TWO_THREADS_FROM = 8192;

/** Files per share of the work, taken by whichever thread is free (Atomics on a shared counter). */
const CHUNK = 256;

/** Stats shares of `size` of the first `n` files (`root` before each name) into `out`, each share taken from `next` by whichever thread is free. */
function statShares(out: BigInt64Array, root: string, names: readonly string[], n: number, next: Int32Array, size: number): void {
  for (let chunk; (chunk = Atomics.add(next, 0, 1)) * size < n; ) {
    for (let i = chunk * size; i < Math.min(n, (chunk + 1) * size); i++) putStat(out, i, fileStat(root + names[i]));
  }
}

/** The worker thread's part: shares taken beside the build's thread (the names as one text in shared memory: nothing copied to post them). */
export function answer({ root, names, shared, counter, size }: { root: string; names: Names; shared: SharedArrayBuffer; counter: SharedArrayBuffer; size: number }): null {
  statShares(new BigInt64Array(shared), root, namesIn(names), names.count, new Int32Array(counter), size);
  return null;
}

/** Stats being taken: a worker thread takes shares from the start (of many files), this thread the rest when it asks for them. */
export type Stating = ReturnType<typeof beginStats>;

/**
 * Begins to take the stats of `names`, each after `root` (a folder and its separator, or none), in order, STAT_FIELDS numbers each as putStat
 * (file-stats.ts) writes them: size, mtime (ns), ctime (ns), inode, device; all -1 where there is
 * no file to stat. Of many files, the worker thread starts now and takes shares while this thread
 * does other work (the content folder listed); `finish` takes the rest here.
 */
export function beginStats(names: readonly string[] | Names, twoThreadsFrom = TWO_THREADS_FROM, size = CHUNK, root = '') {
  const n = 'count' in names ? names.count : names.length;
  // (decoded here only where this thread takes shares)
  let list = 'count' in names ? null : names;
  const out = new BigInt64Array(new SharedArrayBuffer(n * STAT_FIELDS * 8));
  // The files in shares, each taken by the first thread free: the worker starts well before this
  // thread begins, or after, so neither waits for a share fixed in advance.
  const counter = new SharedArrayBuffer(4);
  const next = new Int32Array(counter);
  const other = n < twoThreadsFrom ? null : runOnThread<null>(threadModule(import.meta.url, 'stat-many'), { root, names: 'count' in names ? names : sharedNames(names), shared: out.buffer, counter, size }, 'the stat thread stopped before it finished');
  // (its rejection is heard in finish, after this thread's shares)
  other?.catch(() => {});
  return {
    /** takes the shares not taken yet here (`decoded`: the names as strings, where the caller has them, at least these), and gives every stat once the worker is done */
    async finish(decoded?: readonly string[]): Promise<BigInt64Array> {
      if (Atomics.load(next, 0) * size < n) statShares(out, root, (list ??= decoded ?? namesIn(names as Names)), n, next, size);
      await other;
      return out;
    },
    /** no more shares taken (the stats are not wanted after all); the worker ends after the one it is on */
    abandon: () => void Atomics.store(next, 0, Math.ceil(n / size) + 1),
  };
}

