// `aula serve` as a process: one server, or N worker processes sharing the port (node:cluster).
// Signals: SIGTERM/SIGINT drain and exit 0; SIGHUP reloads dist/.
//
// The modules are loaded where they are used, not here: with --workers the primary forks first and
// loads only what it needs while the workers boot (the server's own modules, ~70 ms to load, are
// the workers' alone), so the first worker answers that much sooner.
import cluster, { type Worker } from 'node:cluster';
import { boundHeapGrowth } from '../util/heap-growth.ts';
import type { LogFormat } from './access-log.ts';
import type { ServeOptions } from './http.ts';
import { describeFailure } from '../util/failure.ts';
import { hugePageEnv } from '../util/huge-pages.ts';

export interface ServeCommandOptions extends Omit<ServeOptions, 'cors' | 'log'> {
  workers: number;
  /** `*` or a comma list of origins */
  cors?: string;
  /** access-log format */
  log?: LogFormat;
  quiet?: boolean;
}

const GRACE_MS = 9_000;

async function warnAboutOrigin(baseUrl: string, url: string, given: boolean): Promise<void> {
  const { originWarning } = await import('./listen.ts');
  const warning = originWarning(baseUrl, url, given);
  if (warning) console.error(`aula: ${warning}`);
}

/**
 * How far V8 lets the heap grow past what its last full collection kept before it collects again
 * (V8's own factor is 1.1–4×, larger the faster the program allocates). A serving process holds
 * ~200 MB of live data; its answers allocate next to nothing outside the JS heap any more (page
 * buffers and the cache's bodies are pooled, store/read/page-buffers.ts), so nothing else prompts
 * a full collection, and after load the heap stood anywhere between 1× and 2× the live data:
 * RSS after the bench's load varied from ~440 to ~580 MiB at 100k/200k. At 30 % it stayed at
 * ~390–400 MiB, with no CPU per request measurably added (A/B under wrk) (util/heap-growth.ts).
 */
const HEAP_GROWING_PERCENT = 30;

async function runOne(options: ServeCommandOptions, announce: boolean): Promise<void> {
  boundHeapGrowth(HEAP_GROWING_PERCENT);
  const [{ accessLogger }, { parseCorsOrigins }, { startServer }, { isRemoteDist }, { askPrimary }] = await Promise.all([
    import('./access-log.ts'),
    import('./cors.ts'),
    import('./http.ts'),
    import('../store/read/remote-source.ts'),
    import('./primary-rows-check.ts'),
  ]);
  // A SIGHUP while the dist loads (node's default would end the process): that load may predate
  // the dist the signal announces, so the server reloads once it is up.
  let reloadWhenUp = false;
  const early = () => void (reloadWhenUp = true);
  process.on('SIGHUP', early);
  const running = await startServer({
    ...options,
    cors: options.cors ? parseCorsOrigins(options.cors) : undefined,
    accessLog: options.quiet ? undefined : accessLogger(options.log ?? 'text', (chunk) => void process.stdout.write(chunk)),
    // (escaped by startServer)
    log: (line) => console.log(`aula: ${line}`),
    // a worker's rows were checked by the primary (when they are the same files)
    rowsCheck: cluster.isWorker && !isRemoteDist(options.dist) ? { vouched: askPrimary } : undefined,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void running.close(GRACE_MS).then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.off('SIGHUP', early);
  process.on('SIGHUP', () => void running.reload());
  if (reloadWhenUp) void running.reload();
  // Said last, the warning before the address: whoever waits for the address line (a supervisor,
  // a test) may signal the process at once, and has every line of its start-up.
  // (a primary gone meanwhile is an error for the callback, not an 'error' event that ends this worker)
  if (cluster.isWorker) process.send?.({ aula: 'listening', url: running.url, baseUrl: running.baseUrl }, () => {});
  if (announce) {
    await warnAboutOrigin(running.baseUrl, running.url, options.baseUrl !== undefined);
    console.log(`aula serving ${options.dist.replace(/\/+$/, '')}/ on ${running.url}/v1/cms/event/`);
  }
}

function runPrimary(options: ServeCommandOptions): void {
  let listening = 0;
  let stopping = false;
  let failed = false;
  // Workers alive, counted by their exits. Not `cluster.workers`: node removes a worker from it
  // only once it has both exited and closed its channel, in either order, so on the last exit it
  // may still be listed; the primary then waited for an exit that had been, and left with 0.
  let alive = 0;
  /** workers that said they listen (and so handle SIGHUP), and those owed a reload until then */
  const up = new Set<number>();
  const owesReload = new Set<number>();
  const fork = () => {
    alive++;
    cluster.fork(hugePageEnv(process.env));
  };
  process.on('SIGTERM', () => stop());
  process.on('SIGINT', () => stop());
  // (before any fork: a signal that comes first would end the process)
  // A worker still starting has no SIGHUP handler yet (the signal would end it): it is sent the
  // reload once it says it listens.
  process.on('SIGHUP', () => {
    for (const w of Object.values(cluster.workers ?? {})) {
      if (w && up.has(w.id)) w.process.kill('SIGHUP');
      else if (w) owesReload.add(w.id);
    }
  });
  for (let i = 0; i < options.workers; i++) fork();
  // The rows are checked once for all workers, while they load the rest (a remote dist is fetched
  // by each worker). The handler is in place before anything is awaited, so no worker's question
  // can arrive before it; it answers once the check's modules are loaded.
  const answering = (async () => {
    const { isRemoteDist } = await import('../store/read/remote-source.ts');
    if (isRemoteDist(options.dist)) return null;
    const { answerWorkers, checkRowsForWorkers } = await import('./primary-rows-check.ts');
    return answerWorkers(checkRowsForWorkers(options.dist));
  })();
  answering.catch((e: unknown) => {
    console.error(`aula: ${describeFailure(e)}`);
    stop(true);
  });
  cluster.on('message', (worker, message: unknown) => void answering.then((answer) => answer?.(worker, message), () => {}));
  /** a worker said why it could not start: the one line printed for all */
  let reported = false;
  /** every worker has listened once, and the address line was printed */
  let announced = false;
  cluster.on('message', (worker, message: { aula?: string; url?: string; baseUrl?: string; line?: string }) => {
    if (message?.aula === 'failed') {
      if (!reported && !stopping) console.error(`aula: ${message.line}`);
      reported = true;
      stop(true);
    }
    if (message?.aula === 'listening') {
      up.add(worker.id);
      if (owesReload.delete(worker.id)) worker.process.kill('SIGHUP');
    }
    // (said once: a worker started in place of one that died brings the count back, quietly)
    if (message?.aula === 'listening' && ++listening === options.workers && !announced) {
      announced = true;
      // the warning first, as with one process
      const warned = message.url && message.baseUrl ? warnAboutOrigin(message.baseUrl, message.url, options.baseUrl !== undefined) : Promise.resolve();
      void warned.then(() => console.log(`aula serving ${options.dist.replace(/\/+$/, '')}/ on ${message.url}/v1/cms/event/ with ${options.workers} workers`));
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    // (a worker killed by a signal has no exit code)
    const how = code ?? signal;
    alive--;
    up.delete(worker.id);
    owesReload.delete(worker.id);
    if (stopping) {
      if (alive === 0) process.exit(failed ? 1 : 0);
      return;
    }
    // A worker that fails before all are up means the dist cannot be served: stop rather than
    // restart it in a loop. Later deaths are replaced. Its exit can be seen before the message
    // it sent last (why it failed) has been read from its channel; the channel closes only after
    // that message, so the line is chosen once it has closed.
    if (listening < options.workers) {
      afterChannel(worker, () => {
        if (!reported) console.error(`aula: worker ${worker.process.pid} exited (${how}) while starting; stopping`);
        reported = true;
        stop(true);
        if (alive === 0) process.exit(1);
      });
      return;
    }
    console.error(`aula: worker ${worker.process.pid} exited (${how}); starting another`);
    listening--;
    fork();
  });
  function stop(failing = false): void {
    stopping = true;
    failed ||= failing;
    // should the process end by itself first, it ends with the same code
    if (failed) process.exitCode = 1;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
  }
}

/** Runs `then` once every message `worker` sent has been read: when its channel has closed. */
function afterChannel(worker: Worker, then: () => void): void {
  if (worker.isConnected()) worker.once('disconnect', then);
  else then();
}

export async function serveCommand(options: ServeCommandOptions): Promise<void> {
  if (options.workers > 1 && cluster.isPrimary) runPrimary(options);
  else if (cluster.isPrimary) await runOne(options, true);
  else {
    try {
      await runOne(options, false);
    } catch (e) {
      // said once, by the primary: every worker fails to start the same way (--workers 2 printed
      // the line twice, and a third saying a worker exited)
      process.send?.({ aula: 'failed', line: describeFailure(e) }, () => process.exit(1));
    }
  }
}
