// `aula dev`: build, serve, and rebuild on every change to the content folder. A rebuild that
// fails validation prints every problem and leaves the last good build answering; a good one is
// swapped in by the server's reload (one assignment: requests in flight finish on the old data).
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build } from '../build/build.ts';
import { checkOutFolder } from '../build/out-folder.ts';
import { formatProblem } from '../content/index.ts';
import { startServer } from '../server/http.ts';
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
}

export interface DevServer {
  url: string;
  close(): Promise<void>;
}

export class DevError extends Error {
  override name = 'DevError';
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
  // With port 0 the address is known only after listening, too late for the first build.
  const baseUrl = options.baseUrl ?? (options.port !== 0 ? localUrl(options.host, options.port) : undefined);

  /** One build; true when a new dist/ is in place. Never throws: dev keeps serving whatever happens. */
  async function buildOnce(): Promise<boolean> {
    try {
      const result = await build({ content, out, baseUrl });
      if (result.ok) {
        log(`built in ${(result.ms / 1000).toFixed(2)} s: ${plural(result.manifest.counts.events, 'event')}, base URL ${result.manifest.base_url}`);
        return true;
      }
      for (const problem of result.problems) log(formatProblem(problem));
      log(`${plural(result.problems.length, 'problem')} found; still serving the last good build`);
    } catch (e) {
      log(`build failed: ${(e as Error).stack ?? String(e)}; still serving the last good build`);
    }
    return false;
  }

  if (!(await buildOnce()) && !existsSync(join(out, 'manifest.json'))) {
    throw new DevError(`${options.content} has no good build yet; fix the problems above and start again`);
  }
  const running = await startServer({ dist: out, port: options.port, host: options.host, watch: false, log });

  // Builds run one at a time; changes arriving meanwhile are collected for the next one.
  const pending = new Set<string>();
  let building: Promise<void> | null = null;
  let closed = false;
  const drain = async () => {
    while (pending.size > 0 && !closed) {
      const changed = [...pending].sort();
      pending.clear();
      log(`changed: ${describeChanges(changed)}`);
      if (await buildOnce()) running.reload();
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
    onError: (e) => log(`watching ${options.content} failed: ${e.message}; restart aula dev`),
  });
  log(`watching ${options.content}/ for changes`);

  return {
    url: running.url,
    async close() {
      closed = true;
      watcher.close();
      await building;
      await running.close(2_000);
    },
  };
}
