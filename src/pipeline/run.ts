// What every stage of a build shares: the options it was asked for, and its clock (each phase's
// wall and CPU time).

export interface BuildOptions {
  content: string;
  out: string;
  /** overrides site.yaml's base_url */
  baseUrl?: string;
  /** the bundled server as static-host rules should reach it (default http://127.0.0.1:8000) */
  upstream?: string;
  /** write .gz/.br beside the public files (default true; `aula dev` skips it) */
  precompress?: boolean;
  /** called as each phase starts (done/total within a phase that counts its steps) */
  progress?: (phase: string, done?: number, total?: number) => void;
  /** write autocomplete/minisearch.json and minisearch-options.js (default true) */
  minisearch?: boolean;
  /** make data/search.bin (default true; `aula dev` makes it when first searched, then has it spliced) */
  search?: boolean;
  /** told when another build holds the lock on `out` and this one waits */
  onWait?: (message: string) => void;
  /** told, one line each, what the user should know of a build that succeeded (a file of theirs in --out that could not be kept in place) */
  onWarning?: (message: string) => void;
  /** told the names in the content folder that look meant as content but are not read (a typo), each with what it resembles */
  onNotRead?: (entries: readonly { path: string; like: string }[]) => void;
  /** how long to wait for another build into `out` (default 10 minutes) */
  lockWaitMs?: number;
  /** also write dist/edge/: the API bundled as a Workers/workerd module, with example configs */
  edge?: boolean;
  /** build cache folder (the CLI's default is node_modules/.cache/aula); none when absent */
  cache?: string;
  /** rows per part of the event rows (default EVENT_PART_ROWS, dist-paths.ts; tests make it small) */
  eventPartRows?: number;
  /** rows from which the data files are written as each is made (default MANY_ROWS, state-render.ts; tests make it small) */
  manyRows?: number;
  /** changed event files past which a build over the state parses them on the parse threads (default POOL_FROM, state-load.ts; tests make it small) */
  poolFrom?: number;
  /** threads the content files are parsed on (default: one per core, at most 4; 0: none) */
  parseThreads?: number;
  /**
   * how much older than the last build a content file's times must be for its stat to be trusted
   * (default MARGIN_NS, state/stat-fields.ts: the content may sit on another file system than the cache,
   * with a clock of its own); 0 where both share one, as in the tests
   */
  statMarginNs?: bigint;
}

/** Each phase's wall and CPU time, and the phase the progress callback is told of next. */
export type Clock = ReturnType<typeof startClock>;

export function startClock(progress: BuildOptions['progress']) {
  const started = performance.now();
  const phases: Record<string, number> = {};
  // CPU time of the whole process (its threads too) per phase: what the phase costs
  const cpu: Record<string, number> = {};
  let mark = started;
  let cpuMark = process.cpuUsage();
  // ends phase `name`; tells the progress callback that `next` begins
  const phase = (name: string, next?: string) => {
    const now = performance.now();
    const used = process.cpuUsage(cpuMark);
    phases[name] = Math.round(now - mark);
    cpu[name] = Math.round((used.user + used.system) / 1000);
    mark = now;
    cpuMark = process.cpuUsage();
    if (next) progress?.(next);
  };
  // as phase, then a turn of the event loop: a signal (Ctrl-C) is seen only there (stop-signals.ts)
  const nextPhase = async (name: string, next: string) => {
    phase(name, next);
    await new Promise((turn) => setImmediate(turn));
  };
  return { started, phases, cpu, phase, nextPhase };
}
