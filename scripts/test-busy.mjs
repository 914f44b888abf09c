// `npm run test:busy`: both test tiers (`npm test`, then `npm run test:slow`) while two CPU hogs
// run, as on a shared or overloaded machine. No test may fail only because the machine is busy.
// The hogs are `stress-ng --cpu 2` when it is installed, else two `node` busy loops; they are
// killed when the tiers end, however they end.
import { spawn, spawnSync } from 'node:child_process';

const HOGS = 2;
/** a hog left behind (this script killed with SIGKILL) stops by itself after this */
const HOG_LIMIT_S = 3 * 60 * 60;

const hasStressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).error === undefined;

/** @type {import('node:child_process').ChildProcess[]} */
const hogs = [];
if (hasStressNg) {
  // its own process group: stress-ng forks a worker per hog, and the whole group is killed
  hogs.push(spawn('stress-ng', ['--cpu', String(HOGS), '--timeout', `${HOG_LIMIT_S}s`, '--quiet'], { stdio: 'ignore', detached: true }));
} else {
  // a busy loop that also ends when this script is gone (its parent changes) or after the limit
  const loop = `const parent = process.ppid, end = Date.now() + ${HOG_LIMIT_S * 1000};
for (let i = 0; ; i++) if (i % 1e7 === 0 && (process.ppid !== parent || Date.now() > end)) break;`;
  for (let i = 0; i < HOGS; i++) hogs.push(spawn(process.execPath, ['-e', loop], { stdio: 'ignore', detached: true }));
}

function killHogs() {
  for (const hog of hogs.splice(0)) {
    try {
      process.kill(-hog.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
/** the tier running now, stopped with this script */
let tier = null;
process.on('exit', killHogs);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killHogs();
    // the tier's whole tree: npm, its shell, vitest and its workers
    if (tier) process.kill(-tier.pid, signal);
    process.exit(130);
  });
}

console.log(`test:busy: ${HOGS} CPU hogs (${hasStressNg ? 'stress-ng --cpu 2' : 'node busy loops'}) running`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = [];
for (const script of ['test', 'test:slow']) {
  const started = process.hrtime.bigint();
  tier = spawn(npm, ['run', '--silent', script], { stdio: 'inherit', detached: true });
  const code = await new Promise((done) => tier.once('exit', (c, signal) => done(c ?? signal)));
  tier = null;
  const s = Number(process.hrtime.bigint() - started) / 1e9;
  results.push(`npm run ${script}: ${code === 0 ? 'passed' : `FAILED (${code})`} in ${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);
}
killHogs();
console.log(`\ntest:busy (${HOGS} CPU hogs):\n  ${results.join('\n  ')}`);
process.exitCode = results.every((r) => r.includes(': passed')) ? 0 : 1;
