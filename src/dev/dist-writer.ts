// dist/ written behind the edits `aula dev` serves from memory: the normal build (with the cache,
// so dist/ is byte-identical to a clean build's) in a child process, one at a time. Edits that
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

/** The child's module beside this one: compiled JavaScript, or TypeScript run through tsx (tests). */
const CHILD = new URL(import.meta.url.endsWith('.ts') ? './build-child.ts' : './build-child.js', import.meta.url);
const CHILD_ARGS = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];

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

  /** Resolves once no build runs and none is asked for. */
  settled(): Promise<void> {
    return this.idle;
  }

  private start(): void {
    const generation = this.asked;
    const started = performance.now();
    // the build's own flags: the CLI would set the cache's default, dev passes its own (or none)
    const child = spawn(process.execPath, [...CHILD_ARGS, fileURLToPath(CHILD), JSON.stringify(this.options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    try {
      // behind the edits served from memory: the dev server's own thread comes first
      if (child.pid !== undefined) setPriority(child.pid, 10);
    } catch {
      // not permitted here: it runs at the same priority
    }
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => void (err = (err + d.toString()).slice(-4000)));
    child.on('error', (e) => void (err += e.message));
    child.on('close', (code, signal) => {
      this.child = null;
      let result: WriteResult;
      try {
        const line = JSON.parse(out.trim().split('\n').pop() ?? '') as { ok: boolean; ms?: number; failure?: string; problems?: number };
        result = { ok: line.ok, generation, ms: line.ms ?? performance.now() - started, failure: line.failure };
      } catch {
        result = { ok: false, generation, failure: `the build ended without a result (${signal ?? `exit code ${code}`}): ${err.trim().split('\n').slice(-3).join(' / ')}` };
      }
      if (!this.closed) this.done(result);
      if (!this.closed && this.asked > generation) this.start();
      else this.markIdle();
    });
  }

  /** Stops a build under way (its staging folder is removed by the next build) and writes no more. */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (child) {
      child.kill('SIGTERM');
      await this.idle;
    }
  }
}
