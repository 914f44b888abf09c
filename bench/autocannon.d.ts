// autocannon ships no type declarations and @types/autocannon is not a dependency; this covers
// the part of its programmatic API the bench uses (see node_modules/autocannon/README.md).
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** called before every request; a falsy return restarts the request list */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request | null | undefined;
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  export interface Result {
    url: string;
    /** seconds, two decimals */
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** milliseconds */
    latency: Histogram;
    /** per-second samples; `total` is the number of completed requests */
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  export interface Options {
    url: string;
    connections?: number;
    /** seconds */
    duration?: number;
    /** seconds */
    timeout?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: Request[];
    title?: string;
  }

  export interface Instance extends Promise<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
