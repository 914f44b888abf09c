// `/healthz` (the process answers) and `/readyz` (it answers from the current dist/) for load
// balancers and orchestrators. Answered by the server, not the API core: they describe this
// process, not the data, and no static host has them.

export interface HealthAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function answer(status: number, value: unknown): HealthAnswer {
  const body = JSON.stringify(value);
  return {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Length': String(Buffer.byteLength(body)),
    },
    body,
  };
}

export const isHealthPath = (path: string) => path === '/healthz' || path === '/readyz';

/** What /readyz says: whether the current dist/ is served, its build, and why not when not. */
export interface HealthState {
  ready: boolean;
  builtAt: string;
  /** the problem that keeps the new build out (the message the log line gave), when not ready */
  problem?: string;
}

/** The answer for a health path, or null for every other request. */
export function healthAnswer(method: string, path: string, state: HealthState): HealthAnswer | null {
  if (!isHealthPath(path)) return null;
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (path === '/healthz') return answer(200, { status: 'ok' });
  return state.ready
    ? answer(200, { ready: true, built_at: state.builtAt })
    : answer(503, {
        ready: false,
        built_at: state.builtAt,
        detail: 'dist/ was replaced but cannot be loaded yet; serving the previous data',
        ...(state.problem !== undefined && { problem: state.problem }),
      });
}
