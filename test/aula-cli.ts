// The one way the tests run the command line as users do: bin/aula.cjs started as a program, as
// node_modules/.bin/aula is (bin/ runs lib/, which the global setup compiles from src/ first); with
// flags for node itself, `node <flags> bin/aula.cjs …`. `aula()` runs a command to its end;
// `startAula()` starts one that keeps running (serve, dev, a build to interrupt) and follows its
// output. Timeouts here are a safety net only: no test's result depends on them.
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';

export const AULA_BIN = join(import.meta.dirname, '..', 'bin', 'aula.cjs');
/** uid and gid of `nobody` on Debian: who a root test run becomes to meet a permission error */
export const NOBODY = 65534;
/** a command that has not ended within this is stuck: it is killed and the test fails */
const STUCK_MS = 180_000;

export interface AulaRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

export interface AulaOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** run as `nobody` when the tests run as root (a permission is what the test is about) */
  asNobody?: boolean;
  /** flags for node itself, before bin/aula.cjs (`--import` a preload): run by node, not as a program */
  node?: readonly string[];
  /** the child's stdin, stdout, stderr (default: ignore, pipe, pipe) */
  stdio?: StdioOptions;
}

const asRoot = process.getuid?.() === 0;

function spawnOptions(options: AulaOptions) {
  return {
    cwd: options.cwd,
    env: options.env,
    stdio: options.stdio ?? (['ignore', 'pipe', 'pipe'] as StdioOptions),
    ...(options.asNobody && asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  };
}

/** the program and its arguments: the bin itself, or node with its flags before it */
const command = (args: readonly string[], options: AulaOptions): [string, string[]] =>
  options.node ? [process.execPath, [...options.node, AULA_BIN, ...args]] : [AULA_BIN, [...args]];

/** Runs `aula <args>` to its end. */
export function aula(args: readonly string[], options: AulaOptions = {}): AulaRun {
  const r = spawnSync(...command(args, options), { ...spawnOptions(options), encoding: 'utf8', timeout: STUCK_MS });
  if (r.error) throw r.error;
  return { code: r.status, signal: r.signal, out: r.stdout ?? '', err: r.stderr ?? '' };
}

export interface AulaProcess {
  readonly child: ChildProcess;
  /** stdout so far */
  readonly out: string;
  /** stderr so far */
  readonly err: string;
  /** the `http://127.0.0.1:<port>` serve and dev print once they listen; rejects when the process ends first */
  readonly origin: Promise<string>;
  /** resolves when the process has ended */
  readonly exited: Promise<AulaRun>;
  /** resolves once `pattern` is in stdout or stderr; rejects when the process ends first */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** sends `signal` (SIGTERM by default) unless it has ended, and waits for the end */
  stop(signal?: NodeJS.Signals): Promise<AulaRun>;
}

/** Starts `aula <args>` and follows it. Stop it in a `finally` or an `afterAll`. */
export function startAula(args: readonly string[], options: AulaOptions = {}): AulaProcess {
  const child = spawn(...command(args, options), spawnOptions(options));
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const heard = () => {
    for (const w of waiters) w();
  };
  child.stdout?.on('data', (d) => {
    out += d;
    heard();
  });
  child.stderr?.on('data', (d) => {
    err += d;
    heard();
  });
  const stuck = setTimeout(() => child.kill('SIGKILL'), STUCK_MS * 2);
  stuck.unref();
  const exited = new Promise<AulaRun>((done) =>
    // 'close': its output is all read too
    child.once('close', (code, signal) => {
      clearTimeout(stuck);
      heard();
      done({ code, signal, out, err });
    }),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((found, fail) => {
      const look = () => {
        const m = pattern.exec(out) ?? pattern.exec(err);
        if (m) {
          waiters.delete(look);
          found(m);
        } else if (ended || child.exitCode !== null || child.signalCode !== null) {
          waiters.delete(look);
          fail(new Error(`aula ${args.join(' ')} ended (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${out}${err}`));
        }
      };
      waiters.add(look);
      look();
    });
  let origin: Promise<string> | undefined;
  return {
    child,
    get out() {
      return out;
    },
    get err() {
      return err;
    },
    get origin() {
      origin ??= waitFor(/on (http:\/\/127\.0\.0\.1:\d+)/).then((m) => m[1]);
      return origin;
    },
    exited,
    waitFor,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
