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
  /** the buffers of an answer handed over to the caller's thread rather than copied (they are gone here) */
  transfer?(answer: A): ArrayBuffer[];
}

/** The part of a Worker a pool uses: a thread to post messages to and hear answers from. */
interface Thread {
  postMessage(message: unknown): void;
  /** 'message': an answer; 'error': what the module threw; 'exit': the thread ended */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a listener's argument is the answer the caller knows the type of
  on(event: 'message' | 'error' | 'exit', listener: (value: any) => void): unknown;
  terminate(): Promise<number>;
  ref?(): void;
  unref?(): void;
}

/** The thread module `name` beside the module at `base` (its import.meta.url), as `base` runs: `.ts` from sources, `.js` compiled. */
export function threadModule(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

export interface PoolOptions {
  /** threads at once, at most (default 1), each started when there is work it would wait for otherwise */
  size?: number;
  /** messages in flight on a thread, at most (default: no bound); the others wait in the pool */
  ahead?: number;
  /** ends the threads whenever none has anything to answer (a later ask starts new ones), their heaps given back */
  endIdle?: boolean;
  /**
   * each thread answers one message and then ends by itself, its heap given back at once — not
   * when the caller's thread next turns its event loop to hear the answer and terminate it, which
   * a build's main thread may do only seconds later
   */
  once?: boolean;
  /** the error of an ask whose thread ended before it answered */
  stopped?: string;
}

type Waiter = { resolve(answer: unknown): void; reject(e: Error): void };
type Running = { thread: Thread; waiting: Waiter[] };

/**
 * Threads of one module, each message asked of them answered by one (its module's `answer`), in
 * order on each thread. A thread that throws or ends before it answers fails the pool: every ask
 * waiting and every later one rejects with that error. A thread waits on the process (keeps it
 * alive) only while it has something to answer.
 */
export class ThreadPool<M, A> {
  private readonly running: Running[] = [];
  private readonly queue: { message: M; waiter: Waiter }[] = [];
  private readonly told: unknown[] = [];
  private failure: Error | null = null;
  private stopped: Promise<void> = Promise.resolve();

  constructor(
    private readonly module: URL,
    private readonly options: PoolOptions = {},
  ) {}

  /** `message` answered by a thread (R: the answer's type, where the module answers messages of several kinds). */
  ask<R extends A = A>(message: M): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.queue.push({ message, waiter: { resolve: resolve as (answer: unknown) => void, reject } });
      this.dispatch();
    });
  }

  /** Posts `message` to every thread, those running and those started later (before anything asked of them); its answers are dropped. */
  tell(message: unknown): void {
    // a thread that answers once would answer this and end before the ask it is started for
    if (this.options.once) throw new Error('ThreadPool: a pool of threads that answer once is told nothing');
    this.told.push(message);
    for (const r of this.running) this.post(r, message, { resolve() {}, reject() {} });
  }

  /**
   * Ends every thread (what is asked after starts new ones); settles once every thread started so
   * far has stopped. The asks not answered reject with `failure`, or without one never settle.
   */
  end(failure?: Error): Promise<void> {
    const ending = this.running.splice(0);
    const waiting = [...ending.flatMap((r) => r.waiting.splice(0)), ...this.queue.splice(0).map((q) => q.waiter)];
    if (failure) for (const w of waiting) w.reject(failure);
    // (settled to nothing: a chain of Promise.all results would hold every earlier end's)
    this.stopped = Promise.all([this.stopped, ...ending.map((r) => r.thread.terminate())]).then(() => undefined);
    return this.stopped;
  }

  private dispatch(): void {
    const { size = 1, once = false } = this.options;
    const ahead = once ? 1 : (this.options.ahead ?? Infinity);
    while (this.queue.length > 0 && this.failure === null) {
      let r = this.running.reduce<Running | undefined>((least, r) => (least && least.waiting.length <= r.waiting.length ? least : r), undefined);
      if ((r === undefined || r.waiting.length > 0) && this.running.length < size) {
        try {
          r = this.start();
        } catch (e) {
          // (no thread could start: out of memory or descriptors) every ask rejects, as when one fails
          return this.fail(e as Error);
        }
      } else if (r === undefined || r.waiting.length >= ahead) return;
      const { message, waiter } = this.queue.shift()!;
      this.post(r, message, waiter);
    }
  }

  private post(r: Running, message: unknown, waiter: Waiter): void {
    if (r.waiting.push(waiter) === 1) r.thread.ref?.();
    r.thread.postMessage(message);
  }

  private start(): Running {
    const { once = false, stopped = 'a thread stopped before it answered' } = this.options;
    const thread = startThread(this.module, once);
    const r: Running = { thread, waiting: [] };
    this.running.push(r);
    thread.on('message', (answer: unknown) => {
      // (a thread that answers once is ending: nothing more is posted to it)
      if (once) this.forget(r);
      r.waiting.shift()?.resolve(answer);
      if (r.waiting.length === 0) thread.unref?.();
      this.dispatch();
      if (this.options.endIdle && this.queue.length === 0 && this.running.every((t) => t.waiting.length === 0)) void this.end();
    });
    thread.on('error', (e: Error) => this.fail(e));
    thread.on('exit', () => {
      this.forget(r);
      if (r.waiting.length === 0) return;
      // its asks rejected here: a thread that answered once is no longer among those end() rejects
      const e = new Error(stopped);
      for (const w of r.waiting.splice(0)) w.reject(e);
      this.fail(e);
    });
    for (const message of this.told) this.post(r, message, { resolve() {}, reject() {} });
    return r;
  }

  private forget(r: Running): void {
    const at = this.running.indexOf(r);
    if (at >= 0) this.running.splice(at, 1);
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    void this.end(e);
  }
}

/** A thread answering with the module at `module` (threadModule). */
function startThread(module: URL, once: boolean): Thread {
  const main = threadModule(import.meta.url, 'thread-main');
  const workerData: ThreadData = { module: module.href, once };
  if (!main.pathname.endsWith('.ts')) return new Worker(main, { workerData });
  if (process.env.AULA_THREADS === 'worker') return sourceWorker(main, workerData);
  return new LocalThread(module, once);
}

/** What thread-main.ts is started with. */
export interface ThreadData {
  module: string;
  once: boolean;
}

/** Posts `message` to a thread of `module` and resolves with its one answer (the thread then ends). */
export function runOnThread<A>(module: URL, message: unknown, stopped: string): Promise<A> {
  const pool = new ThreadPool<unknown, A>(module, { once: true, stopped });
  return pool.ask(message).finally(() => void pool.end());
}

/** A module answering on this thread, as a worker would: in order, after a turn, on copies. */
class LocalThread extends EventEmitter implements Thread {
  private queue: Promise<void> = Promise.resolve();
  private loaded: Promise<ThreadModule<unknown, unknown>>;
  private ended = false;

  constructor(
    module: URL,
    private readonly answersOnce: boolean,
  ) {
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
        if (this.answersOnce) void this.terminate();
      } catch (e) {
        // (a worker ends on what its module throws)
        this.emit('error', e as Error);
        void this.terminate();
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
function sourceWorker(main: URL, workerData: ThreadData): Worker {
  // tsx is a devDependency: present wherever aula runs from its sources, never needed installed.
  // Its ESM API is found from its package's own `exports` (require() resolves its CommonJS twin).
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const loader = new URL(exports['./esm/api'].import.default, pathToFileURL(manifest)).href;
  const boot = `import { register } from ${JSON.stringify(loader)}; register(); await import(${JSON.stringify(main.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { workerData });
}
