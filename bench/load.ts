// The figures one load run reports, whatever generated it, and the autocannon fallback generator
// (bench/generator.ts; wrk is the default, see bench/wrk.ts): one load run over a list of
// request paths, reduced to those figures.
import autocannon, { type Result } from 'autocannon';
import { httpGet } from './processes.ts';

export interface LoadResult {
  /** completed requests / wall-clock duration of the measured run */
  rps: number;
  /** latencies in milliseconds (wrk: to the microsecond; autocannon: whole milliseconds) */
  p50: number;
  p90: number;
  p99: number;
  requests: number;
  /** connection errors, timeouts included */
  errors: number;
  timeouts: number;
  non2xx: number;
  /** 4xx + 5xx: the answers that are failures (a 3xx would still be a valid answer) */
  failures: number;
  statusCounts: Record<string, number>;
  /** mean bytes received per answer, headers included: explains a ratio above 1 (small answers) */
  bytesPerAnswer: number;
  durationS: number;
  /** the slowest answer, in milliseconds (wrk) */
  max?: number;
  /** TCP segments the kernel sent again during the run (bench/tcp-counters.ts; wrk, Linux) */
  tcpRetransmits?: number;
  /** requests the warm-up made over the same pool, just before: with the run's own, past the pool's size they ask URLs again (askedBefore) */
  warmupRequests?: number;
}

/**
 * The measured requests whose URL had been asked already (by the warm-up, or earlier in the run):
 * both walk the pool in order from its start, so past `unique` requests every URL comes again,
 * and an answer asked for twice may be served from the server's answer cache.
 */
export function askedBefore(load: Pick<LoadResult, 'requests' | 'warmupRequests'>, unique: number): number {
  const total = (load.warmupRequests ?? 0) + load.requests;
  return Math.min(load.requests, Math.max(0, total - unique));
}

/**
 * Walks a path list round-robin across all connections. A cursor object rather than a closure
 * variable, so the measured run continues where the warm-up stopped: in distinct mode the
 * measured requests then never repeat the warm-up's values.
 */
export class PathCursor {
  private next = 0;
  constructor(readonly paths: readonly string[]) {
    if (paths.length === 0) throw new Error('no request paths');
  }
  take(): string {
    const path = this.paths[this.next];
    this.next = (this.next + 1) % this.paths.length;
    return path;
  }
}

export interface LoadOptions {
  baseUrl: string;
  cursor: PathCursor;
  connections: number;
  durationS: number;
  /** a discarded run first: JIT, connection set-up and lazily built indexes are not measured */
  warmupS: number;
}

async function cannon(baseUrl: string, cursor: PathCursor, connections: number, durationS: number): Promise<Result> {
  // Repeated mode goes through setupRequest too (with a one-path list), so both modes pay the same
  // load-generator cost and their ratios compare.
  return autocannon({
    url: baseUrl,
    connections,
    duration: durationS,
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => {
          request.path = cursor.take();
          return request;
        },
      },
    ],
  });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { baseUrl, cursor, connections, durationS, warmupS } = options;
  const warmup = warmupS > 0 ? (await cannon(baseUrl, cursor, connections, warmupS)).requests.total : 0;
  const r = await cannon(baseUrl, cursor, connections, durationS);
  const statusCounts: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) statusCounts[code] = Number(count);
  const duration = r.duration > 0 ? r.duration : durationS;
  return {
    rps: r.requests.total / duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    failures: (r['4xx'] ?? 0) + (r['5xx'] ?? 0),
    statusCounts,
    bytesPerAnswer: r.requests.total > 0 ? r.throughput.total / r.requests.total : 0,
    durationS: duration,
    warmupRequests: warmup,
  };
}

export interface ProbeResult {
  checked: number;
  statusCounts: Record<string, number>;
  /** the first path that did not answer 2xx, with the start of its body */
  firstFailure?: { path: string; status: number | string; body: string };
  /** body size of the first path's answer */
  firstBytes: number;
}

/**
 * A few sequential requests before the load: the generators count non-2xx answers but cannot say
 * which URL produced them, this can.
 */
export async function probe(baseUrl: string, paths: readonly string[], count: number): Promise<ProbeResult> {
  const result: ProbeResult = { checked: 0, statusCounts: {}, firstBytes: 0 };
  const sample = paths.slice(0, Math.max(1, count));
  for (const path of sample) {
    let status: number | string;
    let body = '';
    try {
      const answer = await httpGet(baseUrl + path, 10_000);
      status = answer.status;
      body = answer.body.toString('utf8', 0, Math.min(answer.body.length, 300));
      if (result.checked === 0) result.firstBytes = answer.body.length;
    } catch (e) {
      status = e instanceof Error ? e.message : String(e);
    }
    result.checked++;
    result.statusCounts[status] = (result.statusCounts[status] ?? 0) + 1;
    const ok = typeof status === 'number' && status >= 200 && status < 300;
    if (!ok && !result.firstFailure) result.firstFailure = { path, status, body };
  }
  return result;
}
