// vitest globalSetup, once per run before any test file:
// - a temp folder of the run's own (TMPDIR for every worker and every process a test starts), so
//   the teardown can name whatever a test left behind, pass or fail, without mistaking another
//   run's folders on a shared machine for this one's; and a cache home of its own (XDG_CACHE_HOME);
// - lib/ compiled from the current src/ (test/compile-lib.ts): the CLI tests run bin/aula.cjs → lib/;
// - the sample content/ built once into a dist the tests read (`inject('sampleDist')`), instead of
//   each file building it again; the teardown fails the run if a test changed it.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';
import { aula } from './aula-cli.ts';
import compileLib from './compile-lib.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a dist of the sample content/ as `aula build` writes it by default: read it, never change it (copy it first) */
    sampleDist: string;
  }
}

const REPO = join(import.meta.dirname, '..');

/** Every file under `dir` → sha1 of its bytes (folders by their files). */
function digests(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!rel.isFile()) continue;
    const path = join(rel.parentPath, rel.name);
    out.set(relative(dir, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
  }
  return out;
}

interface Suite {
  temp: string;
  sampleDist: string;
  /** setups that share it (one per project run in this process) */
  users: number;
  teardown(): void;
}
const SHARED = Symbol.for('aula.test-suite');
const shared = globalThis as { [SHARED]?: Suite };

/** Whether a process with this pid runs (on this machine, as far as this user may tell). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The temp folders of runs that were killed before their teardown (their vitest is gone). */
function removeAbandonedSuites(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = /^aula-suite-(\d+)-\w+$/.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function startSuite(): Suite {
  removeAbandonedSuites();
  const root = mkdtempSync(join(tmpdir(), `aula-suite-${process.pid}-`));
  const temp = join(root, 'tmp');
  const fixtures = join(root, 'fixtures');
  // as the system's temp folder is: the tests that drop to `nobody` need it too
  chmodSync(root, 0o755);
  mkdirSync(temp, { mode: 0o1777 });
  chmodSync(temp, 0o1777);
  mkdirSync(fixtures);
  const outerTemp = process.env.TMPDIR;
  // read by os.tmpdir() in every worker (forked after this) and in every child process they start
  process.env.TMPDIR = temp;
  // tsx (the loader of a thread started from the sources, src/util/start-thread.ts) would keep its
  // transform cache in a tsx-<uid> folder there, outliving the test that started it
  const outerTsxCache = process.env.TSX_DISABLE_CACHE;
  process.env.TSX_DISABLE_CACHE = '1';
  // a build with no --cache outside any project caches under $XDG_CACHE_HOME/aula: the run's own,
  // not the user's ~/.cache, which would keep a folder per temp working folder of every run
  const outerCacheHome = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(root, 'cache');
  const sampleDist = join(fixtures, 'sample-dist');
  let sampleBefore: Map<string, string>;
  try {
    compileLib();
    const built = aula(['build', '--content', join(REPO, 'content'), '--out', sampleDist, '--no-cache', '--quiet'], { cwd: fixtures });
    if (built.code !== 0) throw new Error(`building the sample content failed:\n${built.out}${built.err}`);
    sampleBefore = digests(sampleDist);
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  return {
    temp,
    sampleDist,
    users: 0,
    teardown() {
      if (outerTemp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = outerTemp;
      if (outerTsxCache === undefined) delete process.env.TSX_DISABLE_CACHE;
      else process.env.TSX_DISABLE_CACHE = outerTsxCache;
      if (outerCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = outerCacheHome;
      const left = readdirSync(temp);
      const after = digests(sampleDist);
      const changed = [...new Set([...sampleBefore.keys(), ...after.keys()])].filter((rel) => sampleBefore.get(rel) !== after.get(rel));
      rmSync(root, { recursive: true, force: true });
      const problems: string[] = [];
      if (left.length > 0) problems.push(`tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder: ${left.sort().join(', ')}`);
      if (changed.length > 0) problems.push(`a test changed the shared sample dist (copy it before changing it): ${changed.sort().join(', ')}`);
      if (problems.length > 0) {
        // vitest prints an error thrown here but exits 0 all the same
        process.exitCode = 1;
        throw new Error(problems.join('\n'));
      }
    },
  };
}

export default function setup(project: TestProject): () => void {
  // both projects in one run (`vitest run` with no --project) share one suite
  const suite = (shared[SHARED] ??= startSuite());
  suite.users++;
  project.provide('sampleDist', suite.sampleDist);
  return function teardown() {
    if (--suite.users > 0) return;
    delete shared[SHARED];
    suite.teardown();
  };
}
