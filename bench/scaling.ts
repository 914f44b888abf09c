// The figures of docs/scaling.md: memory and cold start by site size, requests/s per core for a
// few query kinds, a replica's cold start from a remote dist, and the share of the bench's query
// mix that a CDN answers from the static page files. A smaller, quicker companion of run.ts:
//   npx tsx bench/scaling.ts [--sizes 10000,20000,40000] [--load-size 20000] [--duration 5]
// It prints markdown on stdout; nothing is written into the repository.
import { Command } from 'commander';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticPages } from '../src/deploy/static-pages.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { loadedFiles } from '../src/store/format/dist-paths.ts';
import type { Manifest } from '../src/store/format/manifest.ts';
import { wrkGenerator } from './generator.ts';
import { aulaEnv, cleanupNow, freePort, httpGet, installCleanup, registerTempDir, spawnTracked, startServerProcess, stopTracked, treeRss } from './processes.ts';
import { buildQuerySet, type QueryKind } from './queries.ts';
import { ensureWrk } from './wrk.ts';

const ROOT = join(import.meta.dirname, '..');
const AULA = join(ROOT, 'bin', 'aula.cjs');
const HOST = '127.0.0.1';
const MiB = 1024 ** 2;

const opts = new Command()
  .option('--sizes <list>', 'event counts (directory objects: twice as many)', '10000,20000,40000')
  .option('--load-size <n>', 'the size the load runs use', '20000')
  .option('--duration <s>', 'seconds per load run (after a 1 s warm-up)', '5')
  .option('--connections <n>', 'wrk connections', '32')
  .parse()
  .opts<{ sizes: string; loadSize: string; duration: string; connections: string }>();

installCleanup(() => false);
const log = (line: string) => console.error(`scaling: ${line}`);

async function build(content: string, dist: string): Promise<number> {
  const t0 = performance.now();
  const proc = spawnTracked(process.execPath, [AULA, 'build', '--content', content, '--out', dist], { cwd: ROOT, env: aulaEnv() });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`aula build failed (${code}): ${proc.output().trim().slice(-800)}`);
  return performance.now() - t0;
}

async function serve(dist: string) {
  const port = await freePort(HOST);
  const started = await startServerProcess(process.execPath, [AULA, 'serve', '--dist', dist, '--port', String(port), '--host', HOST, '--quiet'], `http://${HOST}:${port}/v1/cms/event/`, { cwd: ROOT, env: aulaEnv() });
  if (!started.ok) throw new Error(started.message);
  return { ...started, url: `http://${HOST}:${port}` };
}

/** A plain static origin over a folder, for the remote-dist cold start. */
async function origin(dir: string) {
  const server = createServer((req, res) => {
    try {
      const rel = decodeURIComponent(new URL(req.url!, 'http://x').pathname).replace(/^\/+/, '');
      if (rel.includes('..')) throw new Error('no');
      const bytes = readFileSync(join(dir, rel));
      res.writeHead(200, { 'Content-Length': bytes.length }).end(bytes);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, HOST, ok));
  return { url: `http://${HOST}:${(server.address() as AddressInfo).port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/** What the server loads, as the manifest lists it (store/format/dist-paths.ts loadedFiles). */
const dataBytes = (manifest: Manifest) => loadedFiles(manifest).reduce((sum, rel) => sum + (manifest.files[rel]?.bytes ?? 0), 0);

interface SizeRow {
  events: number;
  buildS: number;
  dataMiB: number;
  coldStartS: number;
  rssMiB: number;
  /** with the answer cache filled by the load runs (the load size only) */
  rssAfterLoadMiB?: number;
  remoteColdStartS?: number;
  remoteRssMiB?: number;
}

/** A request a CDN (or nginx) answers from a page file, as the generated rules match it. */
function fromFile(path: string, pages: ReturnType<typeof staticPages>, events: number): boolean {
  const [p, query = ''] = path.split('?');
  if (p !== pages.listPath) return false;
  if (query === '' || query === `limit=${pages.limit}`) return true;
  const m = new RegExp(`^limit=${pages.limit}&offset=([1-9][0-9]*)$`).exec(query);
  return m !== null && Number(m[1]) % pages.limit === 0 && Number(m[1]) < events;
}

async function main() {
  const sizes = opts.sizes.split(',').map(Number);
  const loadSize = Number(opts.loadSize);
  const durationS = Number(opts.duration);
  const root = mkdtempSync(join(tmpdir(), 'aula-scaling-'));
  registerTempDir(root);
  const rows: SizeRow[] = [];
  const lines: string[] = [];

  for (const events of sizes) {
    const content = join(root, `content-${events}`);
    const dist = join(root, `dist-${events}`);
    log(`${events} events: generating`);
    await generateContent({ events, directory: 2 * events, seed: 1, outDir: content });
    const buildMs = await build(content, dist);
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as Manifest;
    const one = await serve(dist);
    // the text columns are read a second after listening; then a few queries of every kind
    await new Promise((r) => setTimeout(r, 1_500));
    const queries = buildQuerySet({ distDir: dist, contentDir: content, seed: 1, poolSize: 200 });
    for (const kind of queries.kinds) for (const path of kind.distinct.slice(0, 20)) await httpGet(`${one.url}${path}`);
    const row: SizeRow = { events, buildS: buildMs / 1000, dataMiB: dataBytes(manifest) / MiB, coldStartS: one.coldStartMs / 1000, rssMiB: treeRss(one.server.child.pid!).bytes / MiB };
    log(`${events} events: cold start ${row.coldStartS.toFixed(2)} s, RSS ${row.rssMiB.toFixed(0)} MiB`);

    if (events === loadSize) {
      const available = ensureWrk(log);
      if (!available.ok) throw new Error(available.reason);
      const generator = wrkGenerator(available.version, { threads: 1, connections: Number(opts.connections), timeoutS: 10, countStatuses: false });
      const pick = (key: string) => queries.kinds.find((k) => k.key === key) as QueryKind;
      const full = buildQuerySet({ distDir: dist, contentDir: content, seed: 1, poolSize: 20_000 });
      const pickFull = (key: string) => full.kinds.find((k) => k.key === key) as QueryKind;
      lines.push(`| kind | mode | req/s (1 process = 1 core) | p50 ms | p99 ms | errors |`, '|---|---|---:|---:|---:|---:|');
      for (const [key, mode] of [['page', 'repeated'], ['icontains', 'repeated'], ['icontains', 'distinct'], ['detail', 'distinct'], ['ac1', 'distinct'], ['page', 'distinct']] as const) {
        const kind = mode === 'distinct' ? pickFull(key) : pick(key);
        if (!kind) continue;
        const paths = mode === 'distinct' ? kind.distinct : [kind.repeated];
        const r = await generator.run({ baseUrl: one.url, paths, durationS, warmupS: 1 });
        lines.push(`| ${kind.label} | ${mode} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors + r.failures} |`);
        log(`${kind.label} ${mode}: ${r.rps.toFixed(0)} req/s`);
      }
      row.rssAfterLoadMiB = treeRss(one.server.child.pid!).bytes / MiB;

      // CDN hit ratio of the bench's mix: every kind and mode weighted alike, as run.ts runs them
      const pages = staticPages(manifest);
      const shares = full.kinds.flatMap((k) => [
        { label: `${k.label}, repeated`, share: fromFile(k.repeated, pages, events) ? 1 : 0 },
        { label: `${k.label}, distinct`, share: k.distinct.filter((p) => fromFile(p, pages, events)).length / k.distinct.length },
      ]);
      const total = shares.reduce((s, x) => s + x.share, 0) / shares.length;
      lines.push('', `static-file share of the bench mix (${shares.length} runs weighted alike): ${(total * 100).toFixed(2)} %`);
      for (const s of shares.filter((x) => x.share > 0)) lines.push(`- ${s.label}: ${(s.share * 100).toFixed(2)} % from files`);
      const repeatedShare = full.kinds.length / shares.length;
      lines.push(`- repeated runs (one URL each, a CDN hit after the first request): ${(repeatedShare * 100).toFixed(0)} % of the runs`);
    }
    await stopTracked(one.server);

    // a replica loading the same build from an HTTP origin instead of its disk
    const from = await origin(root);
    const port = await freePort(HOST);
    const remote = await startServerProcess(process.execPath, [AULA, 'serve', '--dist', `${from.url}dist-${events}/`, '--port', String(port), '--host', HOST, '--quiet'], `http://${HOST}:${port}/v1/cms/event/`, { cwd: ROOT, env: aulaEnv() });
    if (remote.ok) {
      row.remoteColdStartS = remote.coldStartMs / 1000;
      row.remoteRssMiB = treeRss(remote.server.child.pid!).bytes / MiB;
      await stopTracked(remote.server);
    } else log(`remote: ${remote.message}`);
    await from.close();
    rows.push(row);
  }

  const cpu = readFileSync('/proc/cpuinfo', 'utf8');
  console.log(`machine: ${cpu.match(/model name\s*:\s*(.*)/)?.[1] ?? '?'} × ${cpu.match(/^processor/gm)?.length ?? '?'}, Node ${process.version}\n`);
  console.log('| events (directory ×2) | build s | data files MiB | cold start s | RSS MiB | RSS MiB per 10k events | RSS MiB after the load runs | remote dist: cold start s / RSS MiB |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(`| ${r.events.toLocaleString('en')} | ${r.buildS.toFixed(1)} | ${r.dataMiB.toFixed(1)} | ${r.coldStartS.toFixed(2)} | ${r.rssMiB.toFixed(0)} | ${((r.rssMiB * 10_000) / r.events).toFixed(0)} | ${r.rssAfterLoadMiB?.toFixed(0) ?? '–'} | ${r.remoteColdStartS?.toFixed(2) ?? '–'} / ${r.remoteRssMiB?.toFixed(0) ?? '–'} |`);
  }
  console.log('');
  for (const l of lines) console.log(l);
}

main()
  .catch((e) => {
    console.error(`scaling: ${(e as Error).message}`);
    process.exitCode = 1;
  })
  .finally(() => cleanupNow(false));
