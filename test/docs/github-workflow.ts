// A GitHub Actions workflow run as far as this machine can: each job's steps in order in a
// checkout, every `run:` step through the shell GitHub would use (`bash -e {0}` unless `shell:`
// or `defaults.run.shell` says otherwise) in its working directory, with CI=true and
// GITHUB_ACTIONS=true. `uses:` steps are skipped — actions cannot run here — and what the ones
// aula's workflow uses need from the checkout is checked instead: setup-node's npm cache a
// lockfile (at `cache-dependency-path`, else at the top), cache a path in the checkout (restored
// after `npm ci` when it is in node_modules/), upload-artifact the path it uploads (after the
// steps before it). Node.js is this machine's, not the one setup-node would install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { removeDir, tempDir } from '../helpers.ts';

interface Step {
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  'working-directory'?: string;
  [key: string]: unknown;
}

interface Defaults {
  run?: { shell?: string; 'working-directory'?: string };
}

/** What a step did: its name as the workflow writes it, and what it printed. */
export interface StepRun {
  step: string;
  output: string;
}

/** GitHub's commands for the shells it names; `{0}` is the script's file. */
const SHELLS: Record<string, string> = {
  '': 'bash -e {0}',
  bash: 'bash --noprofile --norc -eo pipefail {0}',
  sh: 'sh -e {0}',
};

/** Keys of a step this runner understands; anything else (an `if:`, say) it cannot honour, and refuses. */
const STEP_KEYS = new Set(['name', 'uses', 'run', 'shell', 'with', 'env', 'working-directory']);

/** The lockfiles setup-node's npm cache looks for at the top of the checkout. */
const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock'];

function checkAction(checkout: string, step: Step, name: string, before: readonly Step[]): string {
  const [action] = step.uses!.split('@');
  const w = step.with ?? {};
  if (action === 'actions/checkout') return 'the checkout is the clone given';
  if (action === 'actions/setup-node') {
    if (w.cache === 'npm') {
      const wanted = typeof w['cache-dependency-path'] === 'string' ? [w['cache-dependency-path']] : LOCKFILES;
      if (!wanted.some((f) => existsSync(join(checkout, f)))) throw new Error(`${name}: cache: npm needs a lockfile (${wanted.join(', ')}), and the checkout has none`);
    }
    const major = Number(w['node-version']);
    if (!(major >= 20)) throw new Error(`${name}: node-version ${String(w['node-version'])} is not one aula runs on (20 or newer)`);
    return `Node.js ${major} would be installed (this machine runs ${process.version})`;
  }
  if (action === 'actions/upload-artifact') {
    if (typeof w.path !== 'string' || !existsSync(join(checkout, w.path))) throw new Error(`${name}: ${String(w.path)} does not exist after the steps before it`);
    // (upload-artifact leaves out names starting with a dot unless told otherwise)
    const hidden = readdirSync(join(checkout, w.path), { recursive: true }).map(String).filter((f) => f.split('/').some((part) => part.startsWith('.')));
    if (hidden.length > 0 && w['include-hidden-files'] !== true) throw new Error(`${name}: ${join(w.path, hidden[0])} would be left out of the artifact (include-hidden-files is not true)`);
    return `${w.path} would be uploaded as ${String(w.name)}`;
  }
  if (action === 'actions/cache') {
    const path = w.path;
    if (typeof path !== 'string' || path.startsWith('/') || path.split('/').includes('..')) throw new Error(`${name}: path ${String(path)} is not a folder of the checkout`);
    if (typeof w.key !== 'string' || w.key === '') throw new Error(`${name}: no key`);
    // npm ci removes node_modules/ whole: a cache restored into it before would be thrown away
    if (path.split('/').includes('node_modules') && !before.some((b) => /\bnpm ci\b/.test(b.run ?? ''))) throw new Error(`${name}: ${path} is restored before npm ci, which removes node_modules/`);
    return `${path} would be restored (key ${w.key}) and saved at the end`;
  }
  throw new Error(`${name}: an action this runner knows nothing of`);
}

/** Runs `file` (relative to `checkout`) as described above; throws at the first step that fails, with its output. */
export function runWorkflow(checkout: string, file: string, env: Record<string, string> = {}): StepRun[] {
  const workflow = parse(readFileSync(join(checkout, file), 'utf8')) as { defaults?: Defaults; jobs: Record<string, { defaults?: Defaults; steps: Step[] }> };
  const scripts = tempDir('aula-workflow-');
  const runs: StepRun[] = [];
  try {
    for (const [jobName, job] of Object.entries(workflow.jobs)) {
      for (const [i, step] of job.steps.entries()) {
        const name = `${jobName} step ${i + 1} (${step.uses ?? step.run!.trim()})`;
        const unknown = Object.keys(step).filter((k) => !STEP_KEYS.has(k));
        if (unknown.length > 0) throw new Error(`${name}: ${unknown.join(', ')} cannot be run here`);
        if (step.uses !== undefined) {
          runs.push({ step: name, output: `skipped: ${checkAction(checkout, step, name, job.steps.slice(0, i))}` });
          continue;
        }
        const shell = step.shell ?? job.defaults?.run?.shell ?? workflow.defaults?.run?.shell ?? '';
        const command = SHELLS[shell] ?? (shell.includes('{0}') ? shell : `${shell} {0}`);
        const dir = step['working-directory'] ?? job.defaults?.run?.['working-directory'] ?? workflow.defaults?.run?.['working-directory'] ?? '.';
        const script = join(scripts, `step-${runs.length}.sh`);
        writeFileSync(script, step.run!);
        const [program, ...args] = command.split(' ').map((a) => (a === '{0}' ? script : a));
        const r = spawnSync(program, args, {
          cwd: join(checkout, dir),
          encoding: 'utf8',
          timeout: 300_000,
          env: { ...process.env, ...env, ...step.env, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: checkout },
        });
        const output = `${r.stdout}${r.stderr}`;
        if (r.status !== 0) throw new Error(`${name} exited ${r.status ?? r.signal}:\n${output}`);
        runs.push({ step: name, output });
      }
    }
  } finally {
    removeDir(scripts);
  }
  return runs;
}
