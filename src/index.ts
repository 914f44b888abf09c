// aula's programmatic API: `import { build, check, loadDataset, createApi, serve } from 'aula'`.
// Thin wrappers over the modules the command line uses, so a script gets exactly what the CLI does.
import { resolve } from 'node:path';
import { build as buildDist, type BuildOptions, type BuildResult } from './pipeline/build.ts';
import { loadContent } from './content/index.ts';
import type { Problem } from './content/problems.ts';
import { DEFAULT_CACHE_CONTROL, DEFAULT_UPSTREAM } from './defaults.ts';
import { startServer, type RunningServer, type ServeOptions as ServerOptions } from './server/http.ts';
import { loadDataset as loadDist, type Dataset } from './query/dataset.ts';

export { createApi, type Api, type ApiOptions } from './api/core.ts';
export type { ApiRequest, ApiResponse } from './api/respond.ts';
export { formatProblem } from './content/problems.ts';
export { DistError, type Manifest } from './store/format/manifest.ts';
export { AULA_VERSION } from './version.ts';
export type { BuildOptions, BuildResult, Dataset, Problem, RunningServer };
export { DEFAULT_CACHE_CONTROL, DEFAULT_UPSTREAM };

/** BuildOptions, with the folders defaulting as on the command line. */
export type BuildCallOptions = Omit<BuildOptions, 'content' | 'out'> & {
  /** the content folder (default `content`) */
  content?: string;
  /** the output folder (default `dist`) */
  out?: string;
};

/**
 * Validates `options.content` and writes the API to `options.out` (swapped in only when complete).
 * Never throws for bad content: the problems come back in `{ ok: false, problems }`.
 */
export function build(options: BuildCallOptions = {}): Promise<BuildResult> {
  // (build() with no options threw a TypeError from deep inside the build)
  return buildDist({ ...options, content: options.content ?? 'content', out: options.out ?? 'dist' });
}

export interface CheckOptions {
  /** the content folder (default `content`) */
  content?: string;
}

export interface CheckResult {
  ok: boolean;
  /** every problem found, ordered by file, line, column; empty when ok */
  problems: Problem[];
  /** what the content holds, when it is valid */
  counts?: { events: number; directory: number };
}

/** Validates a content folder without writing anything: `aula check`. */
export async function check(options: CheckOptions = {}): Promise<CheckResult> {
  const { model, problems } = await loadContent(resolve(options.content ?? 'content'));
  if (!model) return { ok: false, problems };
  return { ok: true, problems: [], counts: { events: model.events.length, directory: model.directory.length } };
}

/**
 * Loads a built dist/ folder for answering. Throws a `DistError` when it is missing, incomplete
 * or from another aula version. `baseUrl` overrides the URL links and media URLs are built on.
 */
export function loadDataset(dist: string, options: { baseUrl?: string } = {}): Dataset {
  return loadDist(resolve(dist), options);
}

export interface ServeOptions extends Partial<Omit<ServerOptions, 'dist'>> {
  /** the built folder (default `dist`) */
  dist?: string;
}

/**
 * Starts the HTTP server over a dist/ folder, as `aula serve` does (one process). Defaults:
 * 127.0.0.1, port 8000 (0 picks a free one; the actual address is in `url`). Stop it with `close()`.
 */
export function serve(options: ServeOptions = {}): Promise<RunningServer> {
  return startServer({ ...options, dist: resolve(options.dist ?? 'dist'), port: options.port ?? 8000, host: options.host ?? '127.0.0.1' });
}
