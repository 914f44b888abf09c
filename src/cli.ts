// The `aula` command line: build, serve, check.
// Each command imports what it needs when it runs: `serve` should not pay at start-up for the
// content loader, Markdown, YAML and the build.
import { Command, InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Problem } from './content/problems.ts';
import { DEFAULT_CACHE_CONTROL, DEFAULT_UPSTREAM } from './defaults.ts';
import { DistError, parseManifest } from './store/manifest.ts';
import { AULA_VERSION } from './version.ts';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number 0–65535');
  return n;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError('expected a whole number 1–64');
  return n;
}

function absoluteUrl(value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') return value.replace(/\/+$/, '');
  } catch {
    // fall through
  }
  throw new InvalidArgumentError('expected an absolute http(s) URL, e.g. https://example.org/api');
}

async function reportProblems(problems: readonly Problem[]): Promise<void> {
  const { formatProblem } = await import('./content/index.ts');
  for (const p of problems) console.error(formatProblem(p));
  console.error(`${problems.length} problem${problems.length === 1 ? '' : 's'} found; nothing was written.`);
}

const program = new Command()
  .name('aula')
  .description('Turns a folder of event and directory files into a precomputed JSON API, and serves it.')
  .version(AULA_VERSION)
  .showHelpAfterError();

program
  .command('build')
  .description('validate content/ and write the API to dist/ (the previous dist/ stays untouched on failure)')
  .option('--content <dir>', 'content folder', 'content')
  .option('--out <dir>', 'output folder', 'dist')
  .option('--base-url <url>', "absolute URL the API is served under (default: site.yaml's base_url)", absoluteUrl)
  .option('--upstream <url>', 'the aula server as the static-host rules (_redirects, vercel.json, deploy/nginx.conf) reach it', absoluteUrl, DEFAULT_UPSTREAM)
  .option('--timings', 'print how long each phase took')
  .option('--edge', 'also bundle the API for Cloudflare Workers / workerd into <out>/edge/')
  .action(async (opts: { content: string; out: string; baseUrl?: string; upstream: string; timings?: boolean; edge?: boolean }) => {
    const { build } = await import('./build/build.ts');
    const result = await build({ content: opts.content, out: opts.out, baseUrl: opts.baseUrl, upstream: opts.upstream, edge: opts.edge });
    if (!result.ok) {
      await reportProblems(result.problems);
      process.exitCode = 1;
      return;
    }
    const { counts, base_url } = result.manifest;
    console.log(
      `built ${opts.out}/ in ${(result.ms / 1000).toFixed(2)} s: ${counts.events} events (${counts.event_list_pages} static pages), ` +
        `${counts.directory} directory objects, ${result.files} files; base URL ${base_url}`,
    );
    if (opts.timings) {
      for (const [name, ms] of Object.entries(result.phases)) console.log(`  ${name.padEnd(14)} ${(ms / 1000).toFixed(2)} s`);
    }
  });

program
  .command('serve')
  .description('answer every query of the API from a built dist/ folder')
  .option('--dist <dir>', 'built folder to serve', 'dist')
  .option('--port <n>', 'port to listen on', port, 8000)
  .option('--host <h>', 'address to bind', '127.0.0.1')
  .option('--base-url <url>', 'absolute URL for links and media URLs (default: the one the dist was built with)', absoluteUrl)
  .option('--cache-control <value>', 'Cache-Control header of successful answers', DEFAULT_CACHE_CONTROL)
  .option('--workers <n>', 'number of server processes sharing the port', positive, 1)
  .action(async (opts: { dist: string; port: number; host: string; baseUrl?: string; cacheControl: string; workers: number }) => {
    const { serveCommand } = await import('./server/cluster.ts');
    await serveCommand(opts);
  });

program
  .command('dev')
  .description('build, serve and rebuild on every change to content/ (a broken edit keeps the last good build answering)')
  .option('--content <dir>', 'content folder', 'content')
  .option('--out <dir>', 'output folder (not dist/: dev links point at this machine)', '.aula-dev')
  .option('--port <n>', 'port to listen on', port, 8000)
  .option('--host <h>', 'address to bind', '127.0.0.1')
  .option('--base-url <url>', 'absolute URL for links (default: http://<host>:<port>)', absoluteUrl)
  .action(async (opts: { content: string; out: string; port: number; host: string; baseUrl?: string }) => {
    const { startDev } = await import('./dev/dev.ts');
    const dev = await startDev({ ...opts, log: (line) => console.log(`aula: ${line}`) });
    console.log(`aula dev serving on ${dev.url}/v1/cms/event/ (watching ${opts.content}/)`);
    const stop = () => void dev.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

program
  .command('nginx')
  .description('print the nginx snippets that serve the static pages of a built dist/ and proxy the rest to aula serve')
  .option('--dist <dir>', 'built folder', 'dist')
  .option('--root <dir>', 'where dist/ is on the nginx host (default: the absolute --dist path)')
  .option('--upstream <url>', 'the aula server as nginx reaches it', absoluteUrl, DEFAULT_UPSTREAM)
  .action(async (opts: { dist: string; root?: string; upstream: string }) => {
    const { nginxSnippets } = await import('./build/routing-files.ts');
    const manifest = parseManifest(readFileSync(join(opts.dist, 'manifest.json'), 'utf8'), join(opts.dist, 'manifest.json'));
    console.log(nginxSnippets(manifest, opts.upstream, resolve(opts.root ?? opts.dist)));
  });

program
  .command('check')
  .description('validate content/ only: print every problem, exit 1 if there is any')
  .option('--content <dir>', 'content folder', 'content')
  .action(async (opts: { content: string }) => {
    const { loadContent } = await import('./content/index.ts');
    const { model, problems } = await loadContent(opts.content);
    if (!model) {
      await reportProblems(problems);
      process.exitCode = 1;
      return;
    }
    console.log(`${opts.content}/ is valid: ${model.events.length} events, ${model.directory.length} directory objects.`);
  });

program.parseAsync().catch((e: unknown) => {
  if (e instanceof DistError || (e instanceof Error && e.name === 'DevError')) console.error(`aula: ${e.message}`);
  else console.error(e);
  process.exit(1);
});
