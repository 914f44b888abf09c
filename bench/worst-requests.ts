// The worst requests we can construct, one kind at a time, against a running `aula serve`: how much
// work the core counts for each (src/query/work-budget.ts), how much CPU the server's main thread
// spends on one, and the p99 of a cheap request while they keep coming. Targets: every worst
// request ≤ 100 ms of main-thread CPU; the cheap request's p99 ≤ 50 ms meanwhile.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createApi } from '../src/api/core.ts';
import { loadDataset } from '../src/query/dataset.ts';
import { metered, WorkMeter } from '../src/query/work-budget.ts';
import type { LoadGenerator } from './generator.ts';
import type { LoadResult } from './load.ts';

export interface WorstRequest {
  kind: string;
  /** path and query; a variant number is appended to each one sent, so no answer is cached */
  path: string;
  headers?: Record<string, string>;
}

const enc = encodeURIComponent;
const words = (n: number) => Array.from({ length: n }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}`).join('+');

/** The most expensive request of each kind we know how to make. */
export const WORST_REQUESTS: readonly WorstRequest[] = [
  { kind: 'regex, bounded repeats', path: `/v1/cms/event/?teaser__iregex=${enc('(?:.{0,99}\\pL){10}\\p{Sm}')}` },
  { kind: 'regex, nested classes', path: `/v1/cms/event/?organizer__iregex=${enc('(?:.{0,30}[aeiou]){30}\\p{Sm}')}` },
  { kind: 'regex, no literal', path: `/v1/cms/event/?teaser__iregex=${enc('\\d\\pL\\d')}` },
  { kind: 'substring, 1 character', path: '/v1/cms/event/?teaser__icontains=e&limit=1000' },
  { kind: 'substrings, 3 fields', path: '/v1/cms/event/?teaser__icontains=e&title__icontains=a&organizer__icontains=i&limit=1000' },
  { kind: 'expand, 1,000 events', path: '/v1/cms/event/?limit=1000&expand=categories&omit=body' },
  { kind: 'browsable page, 1,000', path: '/v1/cms/event/?limit=1000', headers: { accept: 'text/html' } },
  { kind: 'page, 1,000 compressed', path: '/v1/cms/event/?limit=1000&offset=50000', headers: { 'accept-encoding': 'br' } },
  { kind: 'calendar, whole list', path: '/v1/cms/event/?format=ics' },
  { kind: 'calendar, a start range', path: '/v1/cms/event/?format=ics&start__gte=2026-01-01T00:00:00Z' },
  { kind: 'autocomplete, 1,500 words', path: `/v1/api/autocomplete/?q=${words(1500)}` },
  { kind: 'autocomplete, 1 letter, 1,000', path: '/v1/api/autocomplete/?q=a&limit=1000' },
];

const CHEAP = '/v1/cms/event/?limit=1';

export interface WorstRow {
  kind: string;
  path: string;
  status: number;
  /** units the core counted for one answer (in this process, over the same dist) */
  units: number;
  /** the server's main thread, per request: the median and the largest of `samples` */
  cpuMsMedian: number;
  cpuMsMax: number;
  samples: number;
  /** the cheap request under load while this one kept coming */
  cheap?: LoadResult;
  worstSent?: number;
  error?: string;
}

/** CPU time of one thread (user + system), in ms, from /proc (10 ms ticks). */
function threadCpuMs(pid: number, tid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function send(origin: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const variant = (path: string, n: number) => `${path}${path.includes('?') ? '&' : '?'}_v=${n}`;

/**
 * Measures each worst request against the server at `origin` (process `pid`, one process: its
 * main thread is the one that answers), with `generator` loading the cheap request meanwhile.
 */
export async function measureWorst(options: {
  origin: string;
  pid: number;
  dist: string;
  generator: LoadGenerator;
  durationS: number;
  samples?: number;
  log: (line: string) => void;
}): Promise<{ rows: WorstRow[]; cheapAlone: LoadResult }> {
  const { origin, pid, dist, generator, durationS, log } = options;
  const samples = options.samples ?? 5;
  const api = createApi(loadDataset(dist), { workLimit: Number.MAX_SAFE_INTEGER, cacheLimits: { entries: 0, bytes: 0 } });
  const limited = createApi(loadDataset(dist));
  const cheapAlone = await generator.run({ baseUrl: origin, paths: [CHEAP], durationS, warmupS: 1 });
  log(`worst: the cheap request alone  p99 ${cheapAlone.p99.toFixed(1)} ms`);
  const rows: WorstRow[] = [];
  let n = 0;
  for (const worst of WORST_REQUESTS) {
    const [path, query = ''] = worst.path.split('?');
    const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
    metered(meter, () => api({ method: 'GET', path, query, headers: { accept: worst.headers?.accept } }));
    const status = limited({ method: 'GET', path, query, headers: { accept: worst.headers?.accept } }).status;
    const row: WorstRow = { kind: worst.kind, path: worst.path, status, units: meter.used, cpuMsMedian: 0, cpuMsMax: 0, samples };
    try {
      const spent: number[] = [];
      for (let i = 0; i < samples; i++) {
        const before = threadCpuMs(pid, pid);
        await send(origin, variant(worst.path, n++), worst.headers);
        spent.push(threadCpuMs(pid, pid) - before);
      }
      spent.sort((a, b) => a - b);
      row.cpuMsMedian = spent[Math.floor(spent.length / 2)];
      row.cpuMsMax = spent[spent.length - 1];
      // two connections keep sending it while the generator measures the cheap request
      let stop = false;
      let sent = 0;
      const attackers = [0, 1].map(async () => {
        while (!stop) {
          await send(origin, variant(worst.path, n++), worst.headers);
          sent++;
        }
      });
      row.cheap = await generator.run({ baseUrl: origin, paths: [CHEAP], durationS, warmupS: 0 });
      stop = true;
      await Promise.all(attackers);
      row.worstSent = sent;
      log(`worst: ${worst.kind.padEnd(30)} ${status} ${(row.units / 1e6).toFixed(1).padStart(6)} M units  main thread ${row.cpuMsMedian}–${row.cpuMsMax} ms  cheap p99 ${row.cheap.p99.toFixed(1)} ms`);
    } catch (e) {
      row.error = e instanceof Error ? e.message : String(e);
      log(`worst: ${worst.kind}: ${row.error}`);
    }
    rows.push(row);
  }
  return { rows, cheapAlone };
}

/** The markdown section of bench/results.md. */
export function worstMarkdown(result: { rows: WorstRow[]; cheapAlone: LoadResult }, settings: string): string {
  const lines = [
    '## Worst requests (issue 31)',
    '',
    `Each kind's most expensive request we know how to make, against one \`aula serve\` process. Units: the work the core counts for one answer (its limit is 20,000,000). Main thread: CPU time of the server's main thread for one request (from /proc, 10 ms ticks; median and largest of the samples; each sample a variant no cache holds). Cheap p99: \`${CHEAP}\` under the generator (${settings}) while two connections keep sending the worst request; alone it has p99 ${result.cheapAlone.p99.toFixed(1)} ms. Targets: main thread ≤ 100 ms, cheap p99 ≤ 50 ms.`,
    '',
    '| kind | status | units | main thread (ms) | cheap p99 (ms) | worst sent | met |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of result.rows) {
    const met = !r.error && r.cpuMsMax <= 100 && (r.cheap?.p99 ?? Infinity) <= 50;
    lines.push(
      `| ${r.kind} | ${r.status} | ${r.units.toLocaleString('en-US')} | ${r.error ? '–' : `${r.cpuMsMedian}–${r.cpuMsMax}`} | ${r.cheap ? r.cheap.p99.toFixed(1) : '–'} | ${r.worstSent ?? '–'} | ${r.error ? `error: ${r.error}` : met ? 'yes' : '**no**'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
