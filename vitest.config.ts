import { defineConfig } from 'vitest/config';

/**
 * `npm run test:slow`: what `npm test` leaves out so it stays a few minutes — tests at a large
 * scale, of real outside programs (nginx, workerd, wrk), of processes killed and recovered, of
 * the packed package, and of the bench's tools. CI runs both (.ci/run).
 */
export const SLOW = [
  // the bench's tools
  'test/bench-*.test.ts',
  // the package as npm packs and installs it
  'test/package.test.ts',
  'test/package-reproducible.test.ts',
  // the docs' commands run in a site that installs the packed tarball
  'test/docs/site-walkthrough.test.ts',
  // real nginx, real workerd
  'test/nginx.test.ts',
  'test/replicas.test.ts',
  'test/edge.test.ts',
  // processes killed (SIGKILL, SIGTERM) and what is left after them
  'test/hardening/build-kill.test.ts',
  'test/hardening/shutdown.test.ts',
  // long random walks of edits, each step checked against a clean build
  'test/incremental.test.ts',
  // real `aula build`, `aula serve` and `aula dev` processes looked at from outside
  'src/cli/heap-policy.test.ts',
  'test/hardening/pipelining.test.ts',
];

const ALL = ['test/**/*.test.ts', 'src/**/*.test.ts'];

export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: on 2 cores that is one, while most
    // tests wait on files, sockets and child processes
    maxWorkers: 2,
    // a safety net for a test that hangs, never a bound a test relies on: a busy machine may
    // take many times longer than a quiet one
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // (in each project, not here: here it would run a second time, for the root project)
    projects: [
      { extends: true, test: { name: 'fast', include: ALL, exclude: SLOW, globalSetup: ['test/global-setup.ts'] } },
      { extends: true, test: { name: 'slow', include: SLOW, globalSetup: ['test/global-setup.ts'] } },
    ],
  },
});
