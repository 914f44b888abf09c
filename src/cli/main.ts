// The `aula` command line: build, serve, check.
// Each command imports what it needs when it runs: `serve` should not pay at start-up for the
// content loader, Markdown, YAML and the build.
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Problem } from '../content/problems.ts';
import { DEFAULT_CACHE_CONTROL, DEFAULT_UPSTREAM } from '../defaults.ts';
import { causeOf, describeFailure } from '../util/failure.ts';
import { tolerateClosedReader } from './closed-output.ts';
import { printable } from '../util/printable.ts';
import { isHeaderValue } from '../util/header-value.ts';
import { basePathProblem, canonicalBaseUrl, isOriginOnly } from '../util/base-path.ts';
import { parseDuration } from '../util/duration.ts';
import { DistError, parseManifest } from '../store/format/manifest.ts';
import { AULA_VERSION } from '../version.ts';

function port(value: string): number {
  // (Number('') is 0: an empty --port "$PORT" listened on a random port)
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number 0–65535');
  return n;
}

function address(value: string): string {
  // An empty --host "$HOST" (an unset variable) listened on every interface: the opposite of the default.
  if (value.trim() === '') throw new InvalidArgumentError('expected an address to listen on, e.g. 127.0.0.1 (0.0.0.0 for every interface)');
  return value;
}

function headerValue(value: string): string {
  // checked here: a value Node will not send (a line break, a non-Latin-1 character) made every 200 a 500
  if (!isHeaderValue(value)) throw new InvalidArgumentError('expected a header value: printable characters, no line breaks');
  return value;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError('expected a whole number 1–64');
  return n;
}

function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === null) throw new InvalidArgumentError('expected a duration such as 500ms, 30s or 2m');
  return ms;
}

function checkFormat(value: string): 'text' | 'json' {
  if (value === 'text' || value === 'json') return value;
  throw new InvalidArgumentError('expected text or json');
}

function absoluteUrl(value: string): string {
  let u: URL | null = null;
  try {
    u = new URL(value);
  } catch {
    // not a URL
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw new InvalidArgumentError('expected an absolute http(s) URL, e.g. https://example.org/api');
  }
  if (u.search !== '' || u.hash !== '') throw new InvalidArgumentError('expected a URL without query or fragment, e.g. https://example.org/api');
  if (u.username !== '' || u.password !== '') throw new InvalidArgumentError('expected no user name or password in the URL: the dist would publish them');
  const problem = basePathProblem(value, u);
  if (problem !== null) throw new InvalidArgumentError(`expected a URL links can carry: ${problem}`);
  return canonicalBaseUrl(u);
}

function upstream(value: string): string {
  const url = absoluteUrl(value);
  // checked here, before anything is built, so that a wrong value is a usage error
  if (!isOriginOnly(new URL(url))) throw new InvalidArgumentError('expected an origin only, e.g. http://127.0.0.1:8000: the host rules pass the request path on unchanged');
  return url;
}

/** A folder given to `--cache`: not a file, nor below one (the build would go on without a cache, and say nothing). */
function cacheFolder(value: string): string {
  let at = resolve(value);
  for (;;) {
    let info;
    try {
      info = statSync(at);
    } catch {
      // not there (yet): the build makes it; a parent may still be a file
      const parent = dirname(at);
      if (parent === at) return value;
      at = parent;
      continue;
    }
    if (info.isDirectory()) return value;
    throw new InvalidArgumentError(`expected a folder, but ${printable(at === resolve(value) ? value : at)} is a file`);
  }
}

/** `aula nginx --root`: a folder nginx can read from a quoted string (deploy/routing.ts nginxString refuses `"`, `\`, `$` and line breaks). */
function nginxRoot(value: string): string {
  if (/["\\$\n\r]/.test(resolve(value))) throw new InvalidArgumentError('expected a path without " \\ $ or a line break, which nginx would read as quoting, an escape or a variable');
  return value;
}

function corsOrigins(value: string): string {
  // checked here so a bad list is an option error; the server parses it again (it is cheap)
  if (value.trim() !== '*') {
    for (const origin of value.split(',').map((o) => o.trim()).filter(Boolean)) {
      let ok = false;
      try {
        const u = new URL(origin);
        ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === origin.replace(/\/$/, '');
      } catch {
        // not a URL
      }
      if (!ok) throw new InvalidArgumentError(`expected * or a comma-separated list of origins such as https://site.example (got ${origin})`);
    }
  }
  return value;
}

/** Every problem, then the count; `wrote`: the command writes (build): it says nothing was (check never writes). */
async function reportProblems(problems: readonly Problem[], wrote = true): Promise<void> {
  const [only] = problems;
  // the content folder itself missing or unreadable: one line naming it, not a position in a file
  if (problems.length === 1 && only.folder) {
    console.error(`aula: ${printable(only.file)}: ${only.message}`);
    return;
  }
  const { problemCount, problemLines } = await import('../content/index.ts');
  for (const line of problemLines(problems)) console.error(line);
  const count = problemCount(problems);
  console.error(`${count} problem${count === 1 ? '' : 's'} found${wrote ? '; nothing was written' : ''}.`);
}

/**
 * How many files the build made in `out`, as its .aula-files lists them (every one: the .gz/.br
 * twins, the host rules and the manifest too); `counted` where that list cannot be read.
 */
async function madeFileCount(out: string, counted: number): Promise<number> {
  const { MADE_FILES, parseMadeFiles } = await import('../store/format/made-files.ts');
  try {
    return parseMadeFiles(readFileSync(join(out, MADE_FILES), 'utf8'))?.length ?? counted;
  } catch {
    return counted;
  }
}

/** A warning when the content folder gave nothing: most likely --content names another folder (content/events). */
function warnIfEmpty(content: string, events: number, directory: number): void {
  if (events === 0 && directory === 0) console.error(`aula: warning: ${printable(content)}/ holds no events and no directory objects; --content names the folder that holds site.yaml, events/ and directory/`);
}

/** One warning per name that looks meant as content but is not read (content/files.ts). */
function warnNotRead(entries: readonly { path: string; like: string }[]): void {
  for (const { path, like } of entries) console.error(printable(`aula: warning: ${path} is not read (did you mean ${like}?)`));
}

tolerateClosedReader(process.stdout, 'standard output', (line) => writeSync(2, `${line}\n`));
tolerateClosedReader(process.stderr, 'standard error', () => {});

const program = new Command()
  .name('aula')
  .description('Turns a folder of event and directory files into a precomputed JSON API, and serves it.')
  .version(AULA_VERSION)
  // A usage error is one line, as every failure: the option or command and what was expected,
  // with commander's "(Did you mean …?)" on the same line, not the full help after it.
  // (a URL's user name and password, which commander quotes with the argument, left out)
  .configureOutput({ outputError: (text, write) => write(`${text.trim().replace(/\s*\n\s*/g, ' ').replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#@']*@/gi, '$1…@')}\n`) });

/** `--cache <dir>` and `--no-cache`; both given is one line and exit 1 (which would win depends on their order). */
function withCacheOptions(cmd: Command, cacheHelp: string, noCacheHelp: string): Command {
  const given = new Set<string>();
  const note = (name: string) => () => {
    given.add(name);
    if (given.size === 2) cmd.error("error: option '--cache <dir>' cannot be used with option '--no-cache'", { exitCode: 1 });
  };
  return cmd.option('--cache <dir>', cacheHelp, cacheFolder).option('--no-cache', noCacheHelp).on('option:cache', note('cache')).on('option:no-cache', note('no-cache'));
}

withCacheOptions(program
  .command('build')
  .description('validate content/ and write the API to dist/ (the previous dist/ stays untouched on failure)')
  .option('--content <dir>', 'content folder', 'content')
  .option('--out <dir>', 'output folder', 'dist')
  .option('--base-url <url>', "absolute URL the API is served under (default: site.yaml's base_url)", absoluteUrl)
  .option('--upstream <url>', 'the aula server as the static-host rules (_redirects, vercel.json, deploy/nginx-upstream.conf) reach it', upstream, DEFAULT_UPSTREAM)
  .option('--timings', 'print how long each phase took')
  .option('--quiet', 'print nothing but problems (no progress, no summary)')
  .option('--edge', 'also bundle the API for Cloudflare Workers / workerd into <out>/edge/')
  .option('--no-minisearch', 'skip dist/autocomplete/minisearch.json and minisearch-options.js'),
  'build cache folder: over the state the previous build into the same --out left there, only changed content files are parsed (default: node_modules/.cache/aula)',
  'parse every content file, and neither read nor write the build cache')
  .action(async (opts: { content: string; out: string; baseUrl?: string; upstream: string; timings?: boolean; quiet?: boolean; minisearch: boolean; edge?: boolean; cache?: string | boolean }) => {
    // before anything of the build is allocated: its threads start with the same V8 flags
    (await import('./heap-policy.ts')).boundBuildHeap();
    (await import('../pipeline/out-folder/locked-out.ts')).cleanUpOnStop((line) => writeSync(2, `${line}\n`));
    const { defaultCacheDir } = await import('../pipeline/cache/cache-folder.ts');
    const cache = opts.cache === false ? undefined : typeof opts.cache === 'string' ? opts.cache : defaultCacheDir();
    // the recorded event files stat'ed on a thread while the build's modules load here
    const early = (await import('./early-stats.ts')).beginEarlyStats({ content: opts.content, out: opts.out, cache });
    const { build } = await import('../pipeline/build.ts');
    const { progressDisplay } = await import('./progress.ts');
    // progress on stdout, like the summary: stderr holds only the problems
    const display = progressDisplay(process.stdout, opts.quiet ? 'quiet' : 'auto');
    let result;
    try {
      result = await build({ content: opts.content, out: opts.out, baseUrl: opts.baseUrl, upstream: opts.upstream, minisearch: opts.minisearch,
        edge: opts.edge,
        cache,
        progress: display.update,
        onWait: (message) => console.error(`aula: ${message}`),
        onNotRead: warnNotRead,
        onWarning: (message) => console.error(`aula: warning: ${message}`),
      }, early);
    } finally {
      display.end();
    }
    if (!result.ok) {
      await reportProblems(result.problems);
      process.exitCode = 1;
      return;
    }
    const { counts, base_url } = result.manifest;
    warnIfEmpty(opts.content, counts.events, counts.directory);
    if (opts.quiet) return;
    console.log(
      `built ${printable(opts.out)}/ in ${(result.ms / 1000).toFixed(2)} s: ${counts.events} events (${counts.event_list_pages} static pages), ` +
        `${counts.directory} directory objects, ${await madeFileCount(opts.out, result.files)} files; base URL ${printable(base_url)}`,
    );
    if (opts.timings) {
      for (const [name, ms] of Object.entries(result.phases)) console.log(`  ${name.padEnd(14)} ${(ms / 1000).toFixed(2)} s, ${(result.cpu[name] / 1000).toFixed(2)} s CPU`);
      const { patch, cache, reuse } = result;
      if (patch) console.log(patch.taken
        ? `  patch          ${cache!.parsed} event files read, ${patch.removed} removed, ${reuse!.rows.rendered} rows rendered, ${counts.event_list_pages - reuse!.pages} pages answered, ${reuse!.pages} linked, ${patch.documents} documents answered`
        : `  patch          not taken: ${patch.reason}`);
      if (cache) console.log(`  cache          ${cache.reused} files reused, ${cache.parsed} parsed`);
    }
  });

program
  .command('serve')
  .description('answer every query of the API from a built dist/ folder')
  .option('--dist <dir>', 'built folder to serve, or its http(s) URL on an origin (see --poll)', 'dist')
  .addOption(new Option('--poll <duration>', 'with a URL as --dist: how often to check the origin for a new build (500ms, 30s, 2m)').argParser(duration).default(30_000, '30s'))
  .option('--port <n>', 'port to listen on', port, 8000)
  .option('--host <h>', 'address to bind', address, '127.0.0.1')
  .option('--base-url <url>', 'absolute URL for links and media URLs (default: the one the dist was built with)', absoluteUrl)
  .option('--cache-control <value>', 'Cache-Control header of successful answers', headerValue, DEFAULT_CACHE_CONTROL)
  .option('--workers <n>', 'number of server processes sharing the port', positive, 1)
  .option('--cors <origins>', 'allow cross-origin calls from these origins (comma-separated, or *); off by default', corsOrigins)
  .addOption(new Option('--log <format>', 'access log format on stdout, one line per request').choices(['text', 'json']).default('text'))
  .option('--quiet', 'no access log')
  .action(async ({ poll, ...opts }: { dist: string; poll: number; port: number; host: string; baseUrl?: string; cacheControl: string; workers: number; cors?: string; log: 'text' | 'json'; quiet?: boolean }) => {
    const { serveCommand } = await import('../server/cluster.ts');
    await serveCommand({ ...opts, pollMs: poll });
  });

withCacheOptions(program
  .command('dev')
  .description('build, serve and rebuild on every change to content/ (a broken edit keeps the last good build answering)')
  .option('--content <dir>', 'content folder', 'content')
  .option('--out <dir>', 'output folder (not dist/: dev links point at this machine)', '.aula-dev')
  .option('--port <n>', 'port to listen on', port, 8000)
  .option('--host <h>', 'address to bind', address, '127.0.0.1')
  .option('--base-url <url>', 'absolute URL for links (default: http://<host>:<port>)', absoluteUrl),
  'build cache folder: each write of --out is a build over the previous one (default: node_modules/.cache/aula)',
  'write --out without the build cache: each write parses every content file')
  .action(async (opts: { content: string; out: string; port: number; host: string; baseUrl?: string; cache?: string | boolean }) => {
    const { startDev } = await import('../dev/dev.ts');
    const { defaultCacheDir } = await import('../pipeline/cache/cache-folder.ts');
    const cache = opts.cache === false ? undefined : typeof opts.cache === 'string' ? opts.cache : defaultCacheDir();
    const dev = await startDev({ ...opts, cache, log: (line) => console.log(`aula: ${line}`) });
    // With broken content at start, serving begins at the first good build.
    dev.serving.then(
      (url) => console.log(`aula dev serving on ${url}/v1/cms/event/ (watching ${printable(opts.content)}/)`),
      (e: unknown) => {
        console.error(`aula: ${describeFailure(e)}`);
        process.exit(1);
      },
    );
    const stop = () => void dev.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

program
  .command('nginx')
  .description('print the nginx include files (the http {} parts: maps and upstream; the server {} part) for a built dist/; see docs/deploying.md')
  .option('--dist <dir>', 'built folder', 'dist')
  .option('--root <dir>', 'where dist/ is on the nginx host: prints the `set $aula_root` line for the server part', nginxRoot)
  .option('--upstream <url>', 'the aula server as nginx reaches it', upstream, DEFAULT_UPSTREAM)
  .action(async (opts: { dist: string; root?: string; upstream: string }) => {
    const { nginxSnippets } = await import('../deploy/routing-files.ts');
    const { MEDIA_FILES_INDEX, parseMediaFiles } = await import('../store/format/public-files.ts');
    const read = (rel: string) => {
      try {
        return readFileSync(join(opts.dist, rel), 'utf8');
      } catch (e) {
        const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : causeOf(e);
        throw new DistError(`${join(opts.dist, rel)}: ${why}; build first with \`aula build\``);
      }
    };
    const manifest = parseManifest(read('manifest.json'), join(opts.dist, 'manifest.json'));
    let media;
    try {
      media = parseMediaFiles(read(MEDIA_FILES_INDEX));
    } catch (e) {
      if (e instanceof DistError) throw e;
      throw new DistError(`${join(opts.dist, MEDIA_FILES_INDEX)}: not the media files' index (${e instanceof SyntaxError ? 'not valid JSON' : causeOf(e)}); build again with \`aula build\``);
    }
    console.log(nginxSnippets(manifest, opts.upstream, { files: [], media }, opts.root === undefined ? undefined : resolve(opts.root)));
  });

program
  .command('check')
  .description("validate content/ only: print the problems (of a file's records the first 100), exit 1 if there is any")
  .option('--content <dir>', 'content folder', 'content')
  .option('--format <format>', 'text (path:line:column key: message) or json (an array of {file, line, column, key, message}, and `more` on a line counting problems not told)', checkFormat, 'text')
  .action(async (opts: { content: string; format: 'text' | 'json' }) => {
    const { loadContent } = await import('../content/index.ts');
    const { model, problems, notRead } = await loadContent(opts.content);
    // on stderr in both formats: stdout holds the JSON problems alone
    warnNotRead(notRead ?? []);
    if (opts.format === 'json') {
      const list = problems.map(({ file, line, column, key, message, more }) => ({ file, line, column, key, message, ...(more === undefined ? {} : { more }) }));
      console.log(JSON.stringify(list, null, 2));
      if (!model) process.exitCode = 1;
      return;
    }
    if (!model) {
      await reportProblems(problems, false);
      process.exitCode = 1;
      return;
    }
    warnIfEmpty(opts.content, model.events.length, model.directory.length);
    console.log(`${printable(opts.content)}/ is valid: ${model.events.length} events, ${model.directory.length} directory objects.`);
  });

program
  .command('init [dir]')
  .description('start a site: a starter content/ folder, npm scripts and a CI workflow in dir (default: here); never overwrites')
  .action(async (dir: string | undefined) => {
    const { init } = await import('./init/init.ts');
    const result = init(dir ?? '.');
    for (const file of result.created) console.log(`created ${file}`);
    for (const file of result.updated) console.log(`updated ${file}`);
    for (const note of result.skipped) console.log(`skipped ${note}`);
    for (const warning of result.warnings) console.error(printable(`aula: warning: ${warning}`));
    console.log(`next: ${result.next.join(' && ')}`);
  });

program.parseAsync().catch((e: unknown) => {
  console.error(`aula: ${describeFailure(e)}`);
  if (process.env.AULA_DEBUG && e instanceof Error) console.error(e.stack);
  process.exit(1);
});
