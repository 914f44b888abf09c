// bench/cpu-profile.ts and bench/miss-profiles.ts: a profile cut into windows and its time split
// into parts, on a made-up profile and on a real server profiled under load. No timing is asserted.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { summarizeWindows, type CpuProfile } from '../bench/cpu-profile.ts';
import type { LoadGenerator } from '../bench/generator.ts';
import type { LoadResult } from '../bench/load.ts';
import { profileServer, type ProfiledRow } from '../bench/miss-profiles.ts';
import { freePort, startServerProcess } from '../bench/processes.ts';
import { missProfileSection } from '../bench/report.ts';
import { removeDir, tempDir } from './helpers.ts';

const LIB = 'file:///site/lib/';
const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/** root → handler (aula) → RegExp (native) ; root → idle, GC, writev, node http, program */
function madeUpProfile(): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 4, 5, 6, 7, 8] },
      { id: 2, callFrame: frame('answer', `${LIB}api/core.js`, 79), children: [3] },
      { id: 3, callFrame: frame('RegExp: ^a+$') },
      { id: 4, callFrame: frame('(idle)') },
      { id: 5, callFrame: frame('(garbage collector)') },
      { id: 6, callFrame: frame('writev') },
      { id: 7, callFrame: frame('_storeHeader', 'node:_http_outgoing', 409) },
      { id: 8, callFrame: frame('scan', `${LIB}query/autocomplete/match.js`, 73) },
    ],
    startTime: 1_000,
    endTime: 1_000 + 10 * 100,
    // one sample every 100 µs at 1100, 1200, … 2000
    samples: [2, 3, 4, 5, 6, 7, 8, 8, 2, 4],
    timeDeltas: Array(10).fill(100),
  };
}

describe('summarizeWindows', () => {
  it('splits the busy time into parts, counts native callees for their caller, and keeps idle apart', () => {
    const [s] = summarizeWindows(madeUpProfile(), [{ from: 0, to: 10_000 }], LIB);
    expect(s.idleUs).toBe(200);
    expect(s.busyUs).toBe(800);
    expect(s.parts).toMatchObject({ aula: 500, GC: 100, 'socket writes': 100, 'node HTTP': 100, 'file reads': 0 });
    expect(s.aulaModules).toEqual({ api: 300, 'query/autocomplete': 200 });
    expect(s.aulaFunctions[0]).toEqual({ name: 'answer (api/core.js:80)', us: 300 });
    expect(s.aulaFunctions[1]).toEqual({ name: 'scan (query/autocomplete/match.js:74)', us: 200 });
  });

  it('takes only the samples inside the window', () => {
    // samples at 1100 … 1500: answer, RegExp, idle, GC, writev
    const [s] = summarizeWindows(madeUpProfile(), [{ from: 1_050, to: 1_550 }], LIB);
    expect(s.idleUs).toBe(100);
    expect(s.parts).toMatchObject({ aula: 200, GC: 100, 'socket writes': 100, 'node HTTP': 0 });
  });
});

describe('profileServer', () => {
  const dir = tempDir('aula-bench-profile-');
  afterAll(() => removeDir(dir));

  it("cuts a real server's profile into one window per run and finds the server's own function in it", async () => {
    // a server whose modules sit in a lib/ folder, like aula's compiled ones: one request spins in
    // burn() for a few ms (plain arithmetic: no call into node), so that function must dominate the window of the run that asks for /burn
    const lib = join(dir, 'lib');
    mkdirSync(join(lib, 'work'), { recursive: true });
    writeFileSync(join(lib, 'work', 'burn.mjs'), 'export function burn() { let x = 0; for (let i = 0; i < 4e6; i++) x = (x * 31 + i) | 0; return x; }\n');
    writeFileSync(
      join(lib, 'server.mjs'),
      [
        "import { createServer } from 'node:http';",
        "import { burn } from './work/burn.mjs';",
        'const server = createServer((req, res) => { const n = req.url === "/burn" ? burn() : 0; res.end(String(n)); });',
        'server.listen(Number(process.argv[2]), "127.0.0.1");',
        "process.on('SIGTERM', () => server.close(() => process.exit(0)));",
      ].join('\n'),
    );
    const port = await freePort();
    // a sequential generator: enough for a profile, no wrk needed
    const generator = {
      run: async ({ baseUrl, paths, durationS }: { baseUrl: string; paths: readonly string[]; durationS: number }): Promise<LoadResult> => {
        const end = performance.now() + durationS * 1000;
        let requests = 0;
        while (performance.now() < end) {
          await new Promise<void>((resolve, reject) => {
            request(`${baseUrl}${paths[requests % paths.length]}`, (res) => res.resume().on('end', resolve)).on('error', reject).end();
          });
          requests++;
        }
        return { rps: requests / durationS, requests, durationS } as LoadResult;
      },
    } as unknown as LoadGenerator;
    const rows = await profileServer({
      start: async (nodeArgs) => ({
        ...(await startServerProcess(process.execPath, [...nodeArgs, join(lib, 'server.mjs'), String(port)], `http://127.0.0.1:${port}/`)),
        baseUrl: `http://127.0.0.1:${port}`,
      }),
      rows: [
        { label: 'cheap', mode: 'repeated', paths: ['/'] },
        { label: 'burning', mode: 'repeated', paths: ['/burn'] },
      ],
      generator,
      durationS: 1,
      dir: join(dir, 'profiles'),
      lib: `${pathToFileURL(lib).href}/`,
      quietMs: 500, // this server defers no work
    });
    expect(rows.map((r) => r.label)).toEqual(['cheap', 'burning']);
    const [cheap, burning] = rows;
    expect(cheap.requests).toBeGreaterThan(0);
    expect(burning.requests).toBeGreaterThan(0);
    // the burning run's window holds burn(), milliseconds per request; the cheap run's window holds none of it
    expect(burning.summary.aulaFunctions[0].name).toBe('burn (work/burn.mjs:1)');
    expect(burning.summary.parts.aula / burning.requests).toBeGreaterThan(1000);
    expect(cheap.summary.aulaFunctions.find((f) => f.name.startsWith('burn'))).toBeUndefined();
    // and the report names it
    const section = missProfileSection({ available: true, rows, durationS: 1 }).join('\n');
    expect(section).toContain('`burn (work/burn.mjs:1)`');
  });
});

describe('bench/memory-preload.mjs', () => {
  const dir = tempDir('aula-bench-memory-');
  afterAll(() => removeDir(dir));

  it("writes the process's memoryUsage() under its pid, with a worker thread running, and never keeps it alive", async () => {
    const preload = pathToFileURL(join(import.meta.dirname, '../bench/memory-preload.mjs')).href;
    // a process that starts a worker thread (which inherits --import) and exits on its own
    const script = "const { Worker } = require('node:worker_threads'); new Worker('setTimeout(() => {}, 300)', { eval: true }); setTimeout(() => {}, 600);";
    const child = spawn(process.execPath, ['--import', preload, '-e', script], { env: { ...process.env, AULA_BENCH_MEMORY: dir }, stdio: 'ignore' });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(readdirSync(dir)).toEqual([`${child.pid}.json`]);
    const text = readFileSync(join(dir, `${child.pid}.json`), 'utf8');
    // each sample is written over the last in place, at one length (no truncating rewrite)
    expect(text.length).toBe(512);
    const m = JSON.parse(text);
    expect(m.pid).toBe(child.pid);
    for (const key of ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers']) expect(m[key]).toBeGreaterThan(0);
    expect(m.rss).toBeGreaterThan(m.heapTotal);
  });
});

describe('missProfileSection', () => {
  const summary = (aula: number): ProfiledRow['summary'] => ({
    busyUs: 30_000 + aula,
    idleUs: 0,
    parts: { 'socket writes': 30_000, 'file reads': 0, GC: 0, aula, 'node HTTP': 0, 'node streams, net': 0, 'node, other': 0, 'V8, native': 0 },
    aulaModules: aula > 0 ? { api: aula } : {},
    aulaFunctions: aula > 0 ? [{ name: 'answer (api/core.js:80)', us: aula }] : [],
  });
  const row = (label: string, cpu: number, aula: number): ProfiledRow => ({ label, mode: 'distinct', requests: 1000, rps: 10_000, cpuUsPerRequest: cpu, summary: summary(aula) });

  it("tells a miss that costs aula no more than the bare server (the run's) from one that costs more (aula's)", () => {
    const bare = { ...row('bare', 40, 0), mode: 'repeated' as const };
    const lines = missProfileSection({ available: true, rows: [row('cheap', 38, 0), row('costly', 120, 80_000)], bare, durationS: 3 });
    const cheap = lines.find((l) => l.startsWith('- **cheap'))!;
    const costly = lines.find((l) => l.startsWith('- **costly'))!;
    expect(cheap).toContain('No more CPU per request than the bare server');
    expect(costly).not.toContain('No more CPU per request');
    // the costly row's difference names aula's part and its function, per request
    expect(costly).toContain('120 µs of CPU per request against 40 (+80 µs); aula +80');
    expect(costly).toContain('`answer (api/core.js:80)` 80');
    // every profiled row, the bare server first, in the table
    expect(lines.filter((l) => /^\| (bare|cheap|costly) \|/.test(l)).map((l) => l.split(' | ')[0])).toEqual(['| bare', '| cheap', '| costly']);
  });
});
