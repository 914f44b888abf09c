// Reading what one wrk run printed: the JSON line of the script's done() (bench/wrk-script.ts),
// cross-checked against wrk's own "Non-2xx or 3xx responses" line, and reduced to the figures
// every generator reports (LoadResult).
import type { LoadResult } from './load.ts';
import { WRK_JSON_MARKER } from './wrk-script.ts';

export interface WrkSummary {
  requests: number;
  durationUs: number;
  /** bytes read, headers included */
  bytes: number;
  /** `status` is wrk's count of answers with a status above 399 */
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** per status code, only when the script counted them (a response() callback) */
  statuses: Record<string, number> | null;
}

const count = (value: unknown, what: string): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`wrk output: ${what} is not a count: ${JSON.stringify(value)}`);
  return value;
};

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`wrk output: ${what} is not an object`);
  return value as Record<string, unknown>;
}

/** wrk's "Non-2xx or 3xx responses: N" line; absent when there were none. */
export function non2xxLine(stdout: string): number {
  const m = /^\s*Non-2xx or 3xx responses:\s*(\d+)\s*$/m.exec(stdout);
  return m ? Number(m[1]) : 0;
}

/**
 * The figures of one run. Throws with the start of the output when the JSON line is missing
 * (wrk failed before done(): a refused connection, a Lua error) or malformed.
 */
export function parseWrkOutput(stdout: string): WrkSummary {
  const line = stdout.split('\n').find((l) => l.startsWith(WRK_JSON_MARKER));
  if (line === undefined) throw new Error(`wrk printed no result line: ${stdout.trim().slice(0, 400) || '(nothing)'}`);
  let raw: unknown;
  try {
    raw = JSON.parse(line.slice(WRK_JSON_MARKER.length));
  } catch (e) {
    throw new Error(`wrk result line is not JSON (${e instanceof Error ? e.message : e}): ${line.slice(0, 200)}`);
  }
  const r = object(raw, 'the result');
  const e = object(r.errors, 'errors');
  const l = object(r.latencyUs, 'latencyUs');
  let statuses: Record<string, number> | null = null;
  if (r.statuses !== null && r.statuses !== undefined) {
    statuses = {};
    for (const [code, n] of Object.entries(object(r.statuses, 'statuses'))) {
      if (!/^\d{3}$/.test(code)) throw new Error(`wrk output: ${JSON.stringify(code)} is not a status code`);
      statuses[code] = count(n, `statuses.${code}`);
    }
  }
  const summary: WrkSummary = {
    requests: count(r.requests, 'requests'),
    durationUs: count(r.durationUs, 'durationUs'),
    bytes: count(r.bytes, 'bytes'),
    errors: {
      connect: count(e.connect, 'errors.connect'),
      read: count(e.read, 'errors.read'),
      write: count(e.write, 'errors.write'),
      status: count(e.status, 'errors.status'),
      timeout: count(e.timeout, 'errors.timeout'),
    },
    latencyUs: {
      p50: count(l.p50, 'latencyUs.p50'),
      p90: count(l.p90, 'latencyUs.p90'),
      p99: count(l.p99, 'latencyUs.p99'),
      max: count(l.max, 'latencyUs.max'),
      mean: count(l.mean, 'latencyUs.mean'),
    },
    statuses,
  };
  // Both numbers come from the same counter inside wrk; a mismatch means this parser read the
  // wrong line or wrk changed, and every ratio after it would be suspect.
  const textual = non2xxLine(stdout);
  if (textual !== summary.errors.status) {
    throw new Error(`wrk output: "Non-2xx or 3xx responses: ${textual}" but the result line counts ${summary.errors.status}`);
  }
  return summary;
}

/** The generator-neutral figures; latencies in milliseconds. */
export function wrkLoadResult(s: WrkSummary): LoadResult {
  const durationS = s.durationUs / 1e6;
  const errors = s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout;
  // Without per-code counts, wrk still tells answers above 399 from the rest.
  const statusCounts = s.statuses ?? {
    ...(s.requests - s.errors.status > 0 ? { '2xx/3xx': s.requests - s.errors.status } : {}),
    ...(s.errors.status > 0 ? { '4xx/5xx': s.errors.status } : {}),
  };
  const non2xx = s.statuses
    ? Object.entries(s.statuses).reduce((n, [code, k]) => (code.startsWith('2') ? n : n + k), 0)
    : s.errors.status;
  return {
    rps: durationS > 0 ? s.requests / durationS : 0,
    p50: s.latencyUs.p50 / 1000,
    p90: s.latencyUs.p90 / 1000,
    p99: s.latencyUs.p99 / 1000,
    requests: s.requests,
    errors,
    timeouts: s.errors.timeout,
    non2xx,
    failures: s.errors.status,
    statusCounts,
    bytesPerAnswer: s.requests > 0 ? s.bytes / s.requests : 0,
    durationS,
    max: s.latencyUs.max / 1000,
  };
}
