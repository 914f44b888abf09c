// Measures what the edge worker's isolate costs in workerd for a built dist/ (built with --edge):
// resident memory of the workerd process before and after the dataset is loaded and the usual
// queries have built their indexes. The difference is what the isolate holds for the data.
//   npx tsx scripts/edge-memory.ts DIST [DIST…]        one line per dist
// With EDGE_HEAP_MB=128 the isolate's V8 heap is capped as on Cloudflare (workerd's v8Flags), to
// see which sizes still answer and how the runtime fails beyond. With EDGE_BISECT=1 it finds, per
// dist, the smallest heap cap (8 MB steps) under which the worker loads and answers every query:
// the V8 heap the dataset needs. The event lines and offsets sit outside that heap (ArrayBuffers),
// so the isolate's total is that figure plus their size. EDGE_SOAK=N adds N distinct list and
// autocomplete queries, enough to fill the worker's answer cache.
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { COMPATIBILITY_DATE, COMPATIBILITY_FLAGS } from '../src/deploy/edge-bundle.ts';
import { loadedFiles } from '../src/store/format/dist-paths.ts';

const pkg = 'workerd';
const main = ((await import(pkg)) as { default: string | { default: string } }).default;
const WORKERD = typeof main === 'string' ? main : main.default;

const freePort = () =>
  new Promise<number>((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });

let HEAP_MB = Number(process.env.EDGE_HEAP_MB) || 0;

const kb = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

const alive = (pid: number) => {
  try {
    return kb(pid, 'VmRSS') > 0;
  } catch {
    return false;
  }
};

const QUERIES = [
  '/v1/cms/event/?limit=1',
  '/v1/cms/event/?title__icontains=vortrag',
  '/v1/cms/event/?title__iregex=herz',
  '/v1/cms/event/?start__gte=2025-06-01&categories=3',
  '/v1/cms/event/?organizer__icontains=klinik&expand=categories',
  '/v1/cms/event/?format=ics&limit=5',
  '/v1/api/autocomplete/?q=mu',
  '/v1/api/autocomplete/?q=raum&m=geo.Room',
  ...Array.from({ length: Number(process.env.EDGE_SOAK) || 0 }, (_, i) =>
    i % 2 ? `/v1/api/autocomplete/?q=${'abcdefghiklmnoprstuvw'[i % 21]}${'aeiou'[i % 5]}&offset=${i % 40}` : `/v1/cms/event/?limit=100&offset=${i * 7}&expand=categories`,
  ),
];

async function measure(dist: string): Promise<string> {
  const root = dirname(resolve(dist));
  const config = join(root, 'edge-memory.capnp');
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  v8Flags = ${JSON.stringify(HEAP_MB ? [`--max-heap-size=${HEAP_MB}`] : [])},
  services = [(name = "api", worker = .api), (name = "assets", disk = (path = "${resolve(dist)}", writable = false))],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "api")],
);
const api :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "${basename(resolve(dist))}/edge/worker.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = ${JSON.stringify(COMPATIBILITY_FLAGS)},
  bindings = [(name = "ASSETS", service = "assets"), (name = "AULA_MAX_DATA_BYTES", text = "100000000000")],
);
`,
  );
  const port = await freePort();
  // a dead isolate shows as status 999 (connection refused/reset) or the runtime's own 5xx
  const started = performance.now();
  const child = spawn(WORKERD, ['serve', config, '--socket-addr', `http=127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        await (await fetch(`${url}/nope`)).arrayBuffer(); // 404 after loading: an isolate with the data
        break;
      } catch {
        if (i > 300) throw new Error('workerd did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const firstAnswer = (performance.now() - started) / 1000;
    const loaded = alive(child.pid!) ? kb(child.pid!, 'VmRSS') : 0;
    let status = 0;
    for (const q of QUERIES) {
      status = Math.max(status, await fetch(url + q).then(async (r) => (await r.arrayBuffer(), r.status), () => 999));
    }
    if (!alive(child.pid!)) status = 999;
    if (status !== 200) return `${dist}: died or failed (status ${status})`;
    const warm = kb(child.pid!, 'VmRSS');
    const peak = kb(child.pid!, 'VmHWM');
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
    const data = ['manifest.json', ...loadedFiles(manifest)].reduce((sum, rel) => sum + statSync(join(dist, rel)).size, 0);
    const mb = (k: number) => (k / 1024).toFixed(0);
    return `${manifest.counts.events} events, ${manifest.counts.directory} directory: data files ${(data / 1e6).toFixed(1)} MB, first answer after ${firstAnswer.toFixed(1)} s (start + load), RSS loaded ${mb(loaded)} MB, after queries ${mb(warm)} MB, peak ${mb(peak)} MB (worst status ${status})`;
  } finally {
    child.kill('SIGTERM');
  }
}

async function heapNeeded(dist: string): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
  const rows = loadedFiles(manifest).filter((rel) => rel.startsWith('data/events/'));
  const external = [...rows, 'data/events.offsets.bin'].reduce((sum, rel) => sum + statSync(join(dist, rel)).size, 0) / 1e6;
  let [low, high] = [8, 512]; // low fails, high passes (in MB)
  while (high - low > 8) {
    HEAP_MB = Math.round((low + high) / 16) * 8;
    if ((await measure(dist)).includes('died or failed')) low = HEAP_MB;
    else high = HEAP_MB;
  }
  return `${dist}: V8 heap needed ≤ ${high} MB (fails at ${low}), plus ${external.toFixed(1)} MB of event lines and offsets outside the heap`;
}

for (const dist of process.argv.slice(2)) console.log(process.env.EDGE_BISECT ? await heapNeeded(dist) : await measure(dist));
