// `aula dev`: build, serve, and rebuild on every change to the content folder. A rebuild that
// fails validation prints every problem and leaves the last good build answering; a good one is
// swapped in by the server's reload (one assignment: requests in flight finish on the old data).
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build } from '../pipeline/build.ts';
import { keepPacksInMemory } from '../pipeline/build-cache.ts';
import { describeFailure } from '../util/failure.ts';
import { checkOutFolder } from '../pipeline/out-folder.ts';
import { formatProblem } from '../content/index.ts';
import { printable } from '../util/printable.ts';
import { startServer, type RunningServer } from '../server/http.ts';
import { watchFolder } from './watch.ts';

export interface DevOptions {
  content: string;
  out: string;
  port: number;
  host: string;
  /** links and media URLs; default: this server's own address (the site's base_url on port 0) */
  baseUrl?: string;
  log: (line: string) => void;
  /** quiet time after the last change before rebuilding */
  debounceMs?: number;
  /** build cache folder: a rebuild parses only the files that changed (none: every file) */
  cache?: string;
}

export interface DevServer {
  /** the server's address; '' while no build has succeeded yet */
  readonly url: string;
  /** resolves with the address once serving: at once after a good first build, else after the first fix */
  readonly serving: Promise<string>;
  close(): Promise<void>;
}

/** The address clients use for a bound host; a wildcard bind is reached through localhost. */
export function localUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function describeChanges(changed: readonly string[]): string {
  const shown = changed.slice(0, 5).join(', ');
  return changed.length > 5 ? `${shown} and ${changed.length - 5} more` : shown;
}

export async function startDev(options: DevOptions): Promise<DevServer> {
  const { log } = options;
  const content = resolve(options.content);
  const out = resolve(options.out);
  checkOutFolder(out, content);
  // rebuilds reuse the cache pack they wrote last from memory instead of reading it back
  if (options.cache !== undefined) keepPacksInMemory();
  // With port 0 the address is known only after listening, too late for the first build.
  const baseUrl = options.baseUrl ?? (options.port !== 0 ? localUrl(options.host, options.port) : undefined);

  /** One build; true when a new dist/ is in place. Never throws: dev keeps serving whatever happens. */
  async function buildOnce(): Promise<boolean> {
    try {
      const result = await build({ content, out, baseUrl, cache: options.cache });
      if (result.ok) {
        const parsed = result.cache ? ` (${plural(result.cache.misses, 'file')} parsed, ${result.cache.hits} from the cache)` : '';
        log(`built in ${(result.ms / 1000).toFixed(2)} s${parsed}: ${plural(result.manifest.counts.events, 'event')}, base URL ${printable(result.manifest.base_url)}`);
        return true;
      }
      for (const problem of result.problems) log(formatProblem(problem));
      log(`${plural(result.problems.length, 'problem')} found; ${running ? 'still serving the last good build' : 'waiting for a fix'}`);
    } catch (e) {
      log(`build failed: ${describeFailure(e)}; ${running ? 'still serving the last good build' : 'waiting for a fix'}`);
    }
    return false;
  }

  // Broken content at start is not fatal: dev waits for the fix (the watch below sees it) and
  // serves from the first good build. A dist left by an earlier run is served meanwhile.
  let running: RunningServer | null = null;
  let markServing!: (url: string) => void;
  let failServing!: (e: Error) => void;
  const serving = new Promise<string>((ok, fail) => {
    markServing = ok;
    failServing = fail;
  });
  serving.catch(() => {}); // a caller that never awaits it must not crash the process
  const startServing = async () => {
    try {
      running = await startServer({ dist: out, port: options.port, host: options.host, watch: false, log });
      markServing(running.url);
    } catch (e) {
      failServing(e as Error);
    }
  };
  if ((await buildOnce()) || existsSync(join(out, 'manifest.json'))) {
    await startServing();
    await serving; // a port in use is the caller's error at start
  } else {
    log(`nothing to serve until ${printable(options.content)}/ builds; waiting for a fix`);
  }

  // Builds run one at a time; changes arriving meanwhile are collected for the next one.
  const pending = new Set<string>();
  let building: Promise<void> | null = null;
  let closed = false;
  const drain = async () => {
    while (pending.size > 0 && !closed) {
      const changed = [...pending].sort();
      pending.clear();
      log(`changed: ${printable(describeChanges(changed))}`);
      if (!(await buildOnce()) || closed) continue;
      if (running) running.reload();
      else await startServing();
    }
  };

  // A dist/ or build scratch folder inside the content folder must not trigger itself.
  const outInside = relative(content, out).split(sep).join('/');
  const ownOutput = (path: string) =>
    path.split('/').some((segment) => segment.startsWith('.aula-')) ||
    (!outInside.startsWith('..') && (path === outInside || path.startsWith(`${outInside}/`)));
  const watcher = watchFolder(content, {
    debounceMs: options.debounceMs ?? 150,
    ignore: ownOutput,
    onBatch: (changed) => {
      for (const path of changed) pending.add(path);
      building ??= drain().finally(() => {
        building = null;
      });
    },
    onError: (e) => log(`watching ${printable(options.content)} failed: ${describeFailure(e)}; restart aula dev`),
  });
  log(`watching ${printable(options.content)}/ for changes`);

  return {
    get url() {
      return running?.url ?? '';
    },
    serving,
    async close() {
      closed = true;
      watcher.close();
      await building;
      await running?.close(2_000);
    },
  };
}
