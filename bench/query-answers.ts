// CPU time per distinct answer, in process: the API core answering each kind's pool of distinct
// URLs (the same pools as `npm run bench`), no HTTP. Measures what the query engine and the
// answer building cost per request, apart from the transport.
//
//   [WARM=n] [PROFILE=dir] node --expose-gc --import tsx bench/query-answers.ts <dist> <content> [per-kind] [kinds,...]
//
// Per kind: mean CPU µs per answer (process.cpuUsage over the whole loop, user+sys), and p50/p99
// of each answer's wall time (hrtime; the machine is shared, so the CPU mean is the figure to
// compare). Every answer is a miss of the response cache (each URL is asked once); its body's
// pooled bytes are given back after it, as the server does once the answer is written.
import { createApi } from '../src/api/core.ts';
import { releaseBody } from '../src/api/body.ts';
import { loadDataset } from '../src/query/dataset.ts';
import { buildQuerySet } from './queries.ts';
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const [distDir = '/tmp/s10/dist', contentDir = '/tmp/s10/content', perKindText = '3000', only] = process.argv.slice(2);
const perKind = Number(perKindText);
// WARM=<n>: distinct URLs asked before measuring (default 300), from the pool's other end; a
// larger warm-up measures the steady state of whatever the answers keep (the autocomplete's words)
const warm = Number(process.env.WARM ?? 300);
const kinds = only ? new Set(only.split(',')) : null;

const ds = loadDataset(distDir);
const api = createApi(ds);
const set = buildQuerySet({ distDir, contentDir, seed: 1, poolSize: 20_000 });
const gc = (globalThis as { gc?: () => void }).gc;

// PROFILE=<dir>: a CPU profile of each kind's measured loop, <dir>/<kind>.cpuprofile
const profileDir = process.env.PROFILE;
const session = profileDir ? new Session() : null;
session?.connect();
const post = (method: string, params?: object) =>
  new Promise<any>((resolve, reject) => session!.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
if (session) {
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
}

// GC pauses on the main thread during a measured loop
let gcMs = 0;
let measuring = false;
new PerformanceObserver((list) => {
  if (measuring) for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

const rows: string[] = [];
for (const kind of set.kinds) {
  if (kinds && !kinds.has(kind.key)) continue;
  const urls = kind.distinct.slice(0, perKind);
  // warm-up on the other end of the pool: JIT, lazy per-query structures
  for (const url of kind.distinct.slice(-Math.min(warm, Math.max(0, kind.distinct.length - perKind)))) releaseBody(ask(url).body);
  gc?.();
  // let the forced collection finish on the helper threads (concurrent sweeping) and its entry
  // reach the observer, so neither is counted as this kind's
  await new Promise((r) => setTimeout(r, 300));
  const times = new Float64Array(urls.length);
  let bytes = 0;
  if (session) await post('Profiler.start');
  gcMs = 0;
  measuring = true;
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < urls.length; i++) {
    const t0 = process.hrtime.bigint();
    const r = ask(urls[i]);
    times[i] = Number(process.hrtime.bigint() - t0) / 1000;
    bytes += r.body.length;
    if (r.status !== 200) throw new Error(`${urls[i]}: ${r.status}`);
    // as the server does once an answer is written: its pooled body bytes go back for reuse
    releaseBody(r.body);
  }
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - wall0;
  // entries arrive asynchronously: let the observer catch up before reading gcMs
  await new Promise((r) => setTimeout(r, 10));
  measuring = false;
  if (session) writeFileSync(`${profileDir}/${kind.key}.cpuprofile`, JSON.stringify((await post('Profiler.stop')).profile));
  times.sort();
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  const mean = (cpu.user + cpu.system) / urls.length;
  rows.push(`${kind.key.padEnd(12)} n=${String(urls.length).padStart(5)}  cpu ${mean.toFixed(1).padStart(8)} µs/answer  p50 ${q(0.5).toFixed(0).padStart(6)} µs  p99 ${q(0.99).toFixed(0).padStart(6)} µs  wall ${((wall * 1000) / urls.length).toFixed(1)} µs, gc ${((gcMs * 1000) / urls.length).toFixed(1)} µs/answer  ${(bytes / urls.length).toFixed(0)} B`);
  console.log(rows[rows.length - 1]);
}

function ask(url: string) {
  const at = url.indexOf('?');
  return api({ method: 'GET', path: at < 0 ? url : url.slice(0, at), query: at < 0 ? '' : url.slice(at + 1), headers: { accept: 'application/json' } });
}
