// `aula dev`: serve the content folder, and every change to it, from memory; write dist/ behind.
//
// A dev session is one long-lived process, so it keeps what a build would make again: the parse
// of every content file (the watcher names the files that changed, see content-state.ts), each
// event's rendered row and the autocomplete index (memory-build.ts). An edit is validated as a
// build validates it (the checks across files run over every record), made into the data files
// in memory and swapped into the running server (one assignment: requests in flight finish on
// the old data) before anything is written. dist/ is then written by the normal build in a child
// process (dist-writer.ts), so it stays byte-identical to a clean build; edits arriving meanwhile
// are served from memory at once and the write catches up after. The public files (events.ics,
// the media, openapi.json, …) are the served build's too, never dist/'s older ones: made from it
// in memory, or answered 503 until written (public-files.ts). Once dist/ holds what is served,
// the server reads it back from there (its validators and public files are then dist/'s).
// A change that fails validation prints every problem and leaves the last good data answering.
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve, sep } from 'node:path';
import { normalizeBaseUrl } from '../util/base-path.ts';
import { describeFailure } from '../util/failure.ts';
import { checkOutFolder } from '../pipeline/out-folder/out-folder.ts';
import { problemCount, problemLines } from '../content/index.ts';
import { printable } from '../util/printable.ts';
import { startServer, type RunningServer } from '../server/http.ts';
import { listen, ServeError } from '../server/listen.ts';
import { loadDataset, type Dataset } from '../query/dataset.ts';
import type { Media } from '../model/types.ts';
import { watchFolder } from './watch.ts';
import { ContentState } from './content-state.ts';
import { MemoryBuild } from './memory-build.ts';
import { DistWriter, type WriteResult } from './dist-writer.ts';
import { memoryPublicFiles } from './public-files.ts';
import type { PublicSource } from '../server/static-files.ts';
import { browserModule, type BrowserModuleName } from '../store/write/browser-modules.ts';

export interface DevOptions {
  content: string;
  out: string;
  port: number;
  host: string;
  /** links and media URLs; default: this server's own address (the site's base_url on port 0) */
  baseUrl?: string;
  log: (line: string) => void;
  /**
   * quiet time after the last change before rebuilding (default 50 ms: an editor's save and a
   * checkout's files come milliseconds apart, and the wait is part of every edit's time to show)
   */
  debounceMs?: number;
  /** build cache folder: dist/ is written with it, each write a build over the previous one (none: no cache) */
  cache?: string;
}

export interface DevServer {
  /** the server's address; '' while no build has succeeded yet */
  readonly url: string;
  /** resolves with the address once serving: at once after a good first build, else after the first fix */
  readonly serving: Promise<string>;
  /** resolves once the changes seen so far are served and dist/ is written (tests) */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The address clients use for a bound host; a wildcard bind is reached through localhost. */
export function localUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** A build made in memory, as served: its data, and what its public files are made of. */
interface Served {
  dataset: Dataset;
  media: ReadonlyMap<number, Media>;
  /** dist/autocomplete/index.json */
  index: string;
  /** the directory version it has (see directoryVersion) */
  directory: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The content files among the changed paths (state.isContent), at most five named; the rest only counted. */
function describeChanges(changed: readonly string[], isContent: (path: string) => boolean): string {
  const content = changed.filter(isContent);
  if (content.length === 0) return `${plural(changed.length, 'file')} that ${changed.length === 1 ? 'is' : 'are'} not content`;
  const shown = content.slice(0, 5).join(', ');
  return content.length > 5 ? `${shown} and ${content.length - 5} more` : shown;
}

/**
 * `port` on `host` if it is free now (0: one the OS picks), which the server binds moments later:
 * a port in use is said in one line before the first build, not after it.
 */
async function freePort(host: string, port: number): Promise<number> {
  const probe = createServer();
  await listen(probe, port, host);
  const { port: bound } = probe.address() as AddressInfo;
  await new Promise((closed) => probe.close(closed));
  return bound;
}

/** Throws one line unless `content` is a folder: dev waits for a fix to the content, not for the folder to appear. */
function checkContentFolder(content: string, shown: string): void {
  let folder: boolean | null = null;
  try {
    folder = statSync(content).isDirectory();
  } catch {
    // said below
  }
  if (!folder) throw new ServeError(`--content ${printable(shown)}: ${folder === false ? 'not a folder' : 'no such folder'}`);
}

export async function startDev(options: DevOptions): Promise<DevServer> {
  const { log } = options;
  const content = resolve(options.content);
  const out = resolve(options.out);
  checkContentFolder(content, options.content);
  checkOutFolder(out, content, options.cache);
  // The links name the port dev listens on, which the first build needs before it listens: port 0
  // is turned into a free port first, so that they name this server (not site.yaml's base_url).
  const port = await freePort(options.host, options.port);
  const baseUrl = options.baseUrl ?? localUrl(options.host, port);
  const state = new ContentState(content);
  const memory = new MemoryBuild();
  /** how many times the directory's index was made: its files in dist/ are the served build's while the number is the same */
  let directoryVersion = 0;
  /** the directory version of each generation asked to be written, and of the one dist/ holds (-1: not known) */
  const directoryOf = new Map<number, number>();
  let writtenDirectory = -1;
  // the browser modules of dist/autocomplete/ are the same in every build: read once, beside the first build
  const modules: Record<BrowserModuleName, string | null> = { autocomplete: null, minisearchOptions: null };
  for (const name of Object.keys(modules) as BrowserModuleName[]) {
    browserModule(name).then(
      (text) => void (modules[name] = text),
      (e: unknown) => log(`making the browser module ${name} failed: ${describeFailure(e)}; it is served once written`),
    );
  }
  const publicFiles = (build: Served): PublicSource =>
    memoryPublicFiles({
      dataset: build.dataset,
      media: build.media,
      index: build.index,
      module: () => modules.autocomplete,
      optionsModule: () => modules.minisearchOptions,
      directoryWritten: () => writtenDirectory === build.directory,
      out,
    });
  const whileBroken = () => (running ? 'still serving the last good build' : 'waiting for a fix');

  /**
   * The data of the content as it is now, made in memory; null when it has problems (printed).
   * Never throws: dev keeps serving whatever happens.
   */
  async function buildInMemory(changed: readonly string[]): Promise<Served | null> {
    const started = performance.now();
    try {
      const update = await state.update(changed);
      // as check and build tell them; told again whenever the folder is walked again
      for (const { path, like } of update.notRead ?? []) log(printable(`warning: ${path} is not read (did you mean ${like}?)`));
      const { model, problems } = await state.model();
      if (!model) {
        for (const line of problemLines(problems)) log(line);
        log(`${plural(problemCount(problems), 'problem')} found; ${whileBroken()}`);
        return null;
      }
      const url = normalizeBaseUrl(baseUrl ?? model.site.base_url);
      const { dataset, stats, index } = await memory.make(model, url);
      if (stats.directory) directoryVersion++;
      // the start (no change named) parses every file: nothing was kept, nothing is read again
      const kept = changed.length === 0 ? '' : `, ${update.files - update.parsed} kept in memory${update.rescanned ? ', the folder read again' : ''}`;
      const parsed = `${plural(update.parsed, 'file')} parsed${kept}`;
      const rows = `${plural(stats.rendered, 'row')} rendered`;
      log(`built in ${((performance.now() - started) / 1000).toFixed(2)} s (${parsed}; ${rows}): ${plural(model.events.length, 'event')}, base URL ${printable(url)}`);
      return { dataset, media: model.media, index, directory: directoryVersion };
    } catch (e) {
      // what is kept may be half updated: the next change reads everything again
      state.forget();
      memory.reset();
      log(`build failed: ${describeFailure(e)}; ${whileBroken()}`);
      return null;
    }
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
  const startServing = async (build?: Served) => {
    try {
      // an out folder an earlier run left names that run's port in its links: served under this one's
      const rebased = build === undefined ? { baseUrl } : {};
      running = await startServer({ dist: out, port, host: options.host, watch: false, log, dataset: build?.dataset, publicFiles: build && publicFiles(build), ...rebased });
      markServing(running.url);
    } catch (e) {
      failServing(e as Error);
    }
  };

  /** the number of the good build served last */
  let generation = 0;
  const writer = new DistWriter({ content, out, baseUrl, cache: options.cache }, (result: WriteResult) => {
    if (!result.ok) {
      // a content problem was printed when it was served; anything else is news
      if (result.failure !== undefined) log(`writing ${printable(options.out)}/ failed: ${result.failure}`);
      return;
    }
    log(`wrote ${printable(options.out)}/ in ${((result.ms ?? 0) / 1000).toFixed(2)} s`);
    writtenDirectory = directoryOf.get(result.generation) ?? -1;
    for (const asked of directoryOf.keys()) if (asked <= result.generation) directoryOf.delete(asked);
    // dist/ holds what is served: answer from it (its validators and public files), unless a
    // newer edit is served from memory already (its write follows)
    if (result.generation !== generation || !running || building !== null) return;
    try {
      running.use(loadDataset(out));
    } catch (e) {
      log(`reading ${printable(options.out)}/ back failed: ${describeFailure(e)}; still serving from memory`);
    }
  });

  const served = async (build: Served) => {
    generation++;
    directoryOf.set(generation, build.directory);
    if (running) running.use(build.dataset, publicFiles(build));
    else await startServing(build);
    // not serving (the port was in use): dev is about to end, and a build started now would go
    // on writing the out folder after the process has said it failed
    if (running) writer.write(generation);
  };

  const first = await buildInMemory([]);
  if (first) {
    await served(first);
    await serving; // a port in use is the caller's error at start
  } else if (existsSync(join(out, 'manifest.json'))) {
    log(`serving ${printable(options.out)}/ as an earlier run left it until ${printable(options.content)}/ builds`);
    await startServing();
    await serving;
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
      log(`changed: ${printable(describeChanges(changed, (path) => state.isContent(path)))}`);
      const build = await buildInMemory(changed);
      if (build && !closed) await served(build);
    }
  };

  // A dist/ or build scratch folder inside the content folder must not trigger itself.
  const outInside = relative(content, out).split(sep).join('/');
  const ownOutput = (path: string) =>
    path.split('/').some((segment) => segment.startsWith('.aula-')) ||
    (!outInside.startsWith('..') && (path === outInside || path.startsWith(`${outInside}/`)));
  const watcher = watchFolder(content, {
    debounceMs: options.debounceMs ?? 50,
    ignore: ownOutput,
    onBatch: (changed) => {
      for (const path of changed) pending.add(path);
      building ??= drain().finally(() => {
        building = null;
      });
    },
    onError: (e) => {
      // changes may have been missed: the next build reads the whole folder again
      state.forget();
      log(`watching ${printable(options.content)} failed: ${describeFailure(e)}; restart aula dev`);
    },
  });
  log(`watching ${printable(options.content)}/ for changes`);

  return {
    get url() {
      return running?.url ?? '';
    },
    serving,
    async settled() {
      // a write that ends may start another; a build from memory may ask for one
      for (;;) {
        await building;
        await writer.settled();
        if (building === null && pending.size === 0 && !writer.busy) return;
      }
    },
    async close() {
      closed = true;
      watcher.close();
      await building;
      await writer.close();
      await running?.close(2_000);
    },
  };
}
