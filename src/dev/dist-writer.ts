// dist/ written behind the edits `aula dev` serves from memory: `aula build` itself (with the
// cache, so dist/ is byte-identical to a clean build's) in a child process, one at a time — the
// build of a large site is seconds of work on one thread, and the dev server's thread must stay
// free to answer and to serve the next edit meanwhile. It runs through bin/aula.cjs, as `aula dev`
// does, with the same V8 settings: the build cache is only shared between processes whose V8
// agrees (cacheIdentity). Edits that
// arrive while one runs are coalesced: when it ends, one more build starts if anything was asked
// for since it began, and it reads the content as it is then. Each build is told by the number of
// the last edit asked for when it started, so the caller can tell whether dist/ has caught up.
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from '../pipeline/build.ts';

export interface WriteResult {
  ok: boolean;
  /** the generation asked for when this build started: dist/ holds the content of then, or later */
  generation: number;
  ms?: number;
  /** why it failed, when it did not fail for the content's problems */
  failure?: string;
}

/** The command line, from src/dev/ or lib/dev/ alike (from the sources, it runs the compiled lib/). */
const AULA = fileURLToPath(new URL('../../bin/aula.cjs', import.meta.url));

/** The build's own arguments for dev's options. */
export function buildArguments(options: Pick<BuildOptions, 'content' | 'out' | 'baseUrl' | 'cache'>): string[] {
  return [
    'build', '--quiet', '--content', options.content, '--out', options.out,
    ...(options.baseUrl !== undefined ? ['--base-url', options.baseUrl] : []),
    ...(options.cache !== undefined ? ['--cache', options.cache] : ['--no-cache']),
  ];
}

export class DistWriter {
  private child: ChildProcess | null = null;
  private asked = 0;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => {};
  private closed = false;

  constructor(
    private readonly options: Pick<BuildOptions, 'content' | 'out' | 'baseUrl' | 'cache'>,
    private readonly done: (result: WriteResult) => void,
  ) {}

  /** Asks for dist/ to be written for the content of `generation` (or later). */
  write(generation: number): void {
    if (this.closed) return;
    this.asked = Math.max(this.asked, generation);
    if (this.child === null) {
      this.idle = new Promise((resolve) => (this.markIdle = resolve));
      this.start();
    }
  }

  /** Whether a build runs. */
  get busy(): boolean {
    return this.child !== null;
  }

  /** Resolves once no build runs and none is asked for. */
  settled(): Promise<void> {
    return this.idle;
  }

  private start(): void {
    const generation = this.asked;
    const started = performance.now();
    const child = spawn(process.execPath, [AULA, ...buildArguments(this.options)], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    // A dev process that ends without close() (process.exit on a failure, an uncaught error) must
    // not leave its build writing the out folder behind it: the build is stopped as it ends (and
    // removes its staging folder and lock as it stops: pipeline/out-folder/stop-signals.ts).
    const stopWithUs = () => void child.kill('SIGTERM');
    process.once('exit', stopWithUs);
    try {
      // behind the edits served from memory: the dev server's own thread comes first
      if (child.pid !== undefined) setPriority(child.pid, 10);
    } catch {
      // not permitted here: it runs at the same priority
    }
    // stderr holds the problems (dev has printed them already) or why the build failed
    let err = '';
    child.stderr!.on('data', (d: Buffer) => void (err = (err + d.toString()).slice(-4000)));
    child.on('error', (e) => void (err += e.message));
    child.on('close', (code, signal) => {
      process.off('exit', stopWithUs);
      this.child = null;
      const ms = performance.now() - started;
      const last = err.trim().split('\n').at(-1) ?? '';
      const result: WriteResult =
        code === 0
          ? { ok: true, generation, ms }
          : / problems? found; nothing was written\.$/.test(last)
            ? { ok: false, generation, ms }
            : { ok: false, generation, ms, failure: `${signal ?? `exit code ${code}`}: ${last.replace(/^aula: /, '')}` };
      if (!this.closed) this.done(result);
      if (!this.closed && this.asked > generation) this.start();
      else this.markIdle();
    });
  }

  /** Stops a build under way (it removes its staging folder and lock as it stops) and writes no more. */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (child) {
      child.kill('SIGTERM');
      await this.idle;
    }
  }
}
