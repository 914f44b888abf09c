// Every worker thread aula starts runs a module of its own sources: a `.ts` file type-checked and
// compiled with the rest (to `.js` in lib/), never JavaScript kept in a string. A thread module
// exports `answer`: each message the thread is posted is answered with what it returns, in order.
//
// Compiled, the module runs on a worker thread (thread-main.ts loads it). Run from the TypeScript
// sources (vitest, tsx), a worker would need tsx's loader in every thread, a start far dearer
// than the jobs (at every build of every test: bench/results.md, "The build's threads"), so the
// module answers on this thread instead, after a turn of the event loop, with its messages copied
// as postMessage copies them: the same code, the same bytes. AULA_THREADS=worker runs them on real threads from the sources too, as
// the thread modules' own tests do.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What a thread module exports. */
export interface ThreadModule<M, A> {
  answer(message: M): A | Promise<A>;
  /**
   * true: the thread answers one message and then ends by itself, its heap given back at once —
   * not when the caller's thread next turns its event loop to hear the answer and terminate it,
   * which a build's main thread may do only seconds later
   */
  once?: boolean;
}

/** The part of a Worker the build uses: a thread to post messages to and hear answers from. */
export interface Thread {
  postMessage(message: unknown): void;
  /** 'message': an answer; 'error': what the module threw; 'exit': the thread ended */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a listener's argument is the answer the caller knows the type of
  on(event: 'message' | 'error' | 'exit', listener: (value: any) => void): unknown;
  terminate(): Promise<number>;
}

/** The thread module `name` beside the module at `base` (its import.meta.url), as `base` runs: `.ts` from sources, `.js` compiled. */
export function threadModule(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** A thread answering with the module at `module` (threadModule). */
export function startThread(module: URL): Thread {
  const main = threadModule(import.meta.url, 'thread-main');
  if (!main.pathname.endsWith('.ts')) return new Worker(main, { workerData: module.href });
  if (process.env.AULA_THREADS === 'worker') return sourceWorker(main, module);
  return new LocalThread(module);
}

/** Posts `message` to a thread of `module` and resolves with its one answer (the thread then ends). */
export function runOnThread<A>(module: URL, message: unknown, stopped: string): Promise<A> {
  return new Promise((resolve, reject) => {
    const thread = startThread(module);
    let done = false;
    thread.on('message', (answer: A) => {
      done = true;
      resolve(answer);
      void thread.terminate();
    });
    thread.on('error', (e) => {
      done = true;
      reject(e);
    });
    thread.on('exit', () => {
      if (!done) reject(new Error(stopped));
    });
    thread.postMessage(message);
  });
}

/** A module answering on this thread, as a worker would: in order, after a turn, on copies. */
class LocalThread extends EventEmitter implements Thread {
  private queue: Promise<void> = Promise.resolve();
  private loaded: Promise<ThreadModule<unknown, unknown>>;
  private ended = false;

  constructor(module: URL) {
    super();
    this.loaded = import(module.href) as Promise<ThreadModule<unknown, unknown>>;
  }

  postMessage(message: unknown): void {
    const copy = structuredClone(message);
    this.queue = this.queue.then(async () => {
      await new Promise((turn) => setImmediate(turn));
      if (this.ended) return;
      try {
        const answer = await (await this.loaded).answer(copy);
        if (!this.ended) this.emit('message', answer);
      } catch (e) {
        this.emit('error', e as Error);
      }
    });
  }

  /**
   * Ends it as a worker's terminate does, once the answer being made has returned: an answer cannot
   * be stopped on this thread, and whoever waits for the end (to close a file the answer writes to)
   * must not go on while it still runs.
   */
  async terminate(): Promise<number> {
    if (!this.ended) {
      this.ended = true;
      await this.queue;
      this.emit('exit', 1);
    }
    return 1;
  }
}

/** A real worker from the sources: tsx's loader registered before thread-main.ts is imported. */
function sourceWorker(main: URL, module: URL): Worker {
  // tsx is a devDependency: present wherever aula runs from its sources, never needed installed.
  // Its ESM API is found from its package's own `exports` (require() resolves its CommonJS twin).
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const loader = new URL(exports['./esm/api'].import.default, pathToFileURL(manifest)).href;
  const boot = `import { register } from ${JSON.stringify(loader)}; register(); await import(${JSON.stringify(main.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { workerData: module.href });
}
