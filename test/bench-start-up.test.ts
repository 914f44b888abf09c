// bench/start-up.ts, over the bundled sample built with --edge: every first request it asks is one
// the server and workerd answer (a 4xx would measure a refusal, not the index it is there for), and
// the report judges each by its CPU time. The figures themselves are the bench's.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idle, treeBusyNs, FIRST_AUTOCOMPLETE, FIRST_REQUESTS, measureEdgeFirst, measureStartUp, startUpMarkdown, type EdgeStartUp, type StartUp } from '../bench/start-up.ts';
import type { SettleClock } from '../bench/processes.ts';
import { buildOk, removeDir, SAMPLE_CONTENT, tempDir } from './helpers.ts';

const root = tempDir('aula-bench-start-up-');
const dist = join(root, 'dist');
afterAll(() => removeDir(root));
beforeAll(async () => {
  await buildOk({ content: SAMPLE_CONTENT, out: dist, edge: true, precompress: false });
});

describe('start → full speed', () => {
  let serve: StartUp;
  let edge: EdgeStartUp | { unavailable: string };

  it('measures aula serve: its CPU after the first answer, and each kind of first request answered 200', async () => {
    // settled after 0.5 s of quiet: the sample's server has nothing to do after its first answer
    serve = await measureStartUp(dist, 500);
    expect(serve.first.map((f) => f.kind)).toEqual([...FIRST_REQUESTS, ...FIRST_AUTOCOMPLETE].map(([kind]) => kind));
    for (const f of serve.first) expect(f.status, f.kind).toBe(200);
    expect(serve.backgroundCpuMs).toBeGreaterThanOrEqual(0);
    expect(serve.startCpuMs).toBeGreaterThan(0);
  });

  it("measures workerd over the edge bundle: each isolate's start apart from its first request, and leaves no config behind in the dist", async () => {
    edge = await measureEdgeFirst(dist);
    if ('unavailable' in edge) return;
    for (const f of [...edge.first, ...edge.fresh]) expect(f.status, f.kind).toBe(200);
    expect(edge.fresh.map((f) => f.kind)).toEqual([...FIRST_REQUESTS, ...FIRST_AUTOCOMPLETE].map(([kind]) => kind));
    // every fresh isolate's start is its own figure: workerd's up to accepting, then the bundle's evaluation until idle
    for (const { start } of [edge, ...edge.fresh]) {
      expect(start.acceptCpuMs).toBeGreaterThan(0);
      expect(start.startCpuMs).toBeGreaterThanOrEqual(0);
    }
    expect(edge.loadCpuMs).toBeGreaterThan(0);
    // workerd's own part, from a worker that answers a constant body
    expect(edge.constant.start.acceptCpuMs).toBeGreaterThan(0);
    expect(edge.constant.firstCpuMs).toBeGreaterThan(0);
    expect(readdirSync(join(dist, 'edge')).filter((f) => f.startsWith('bench-workerd'))).toEqual([]);
  });

  it('reports a verdict per row by CPU time against the targets, with a fresh isolate\'s start in a column of its own', () => {
    const markdown = startUpMarkdown(serve, edge);
    const lines = markdown.split('\n');
    const rows = lines.filter((l) => /^\| (?!first request|---)/.test(l));
    expect(rows).toHaveLength(serve.first.length);
    for (const row of rows) expect(row).toMatch(/\| (met|\*\*missed\*\*) \|/);
    if ('unavailable' in edge) return;
    const fresh = edge.fresh;
    const header = lines.find((l) => l.startsWith('| first request of'))!.split(' | ');
    const startColumn = header.indexOf("a fresh isolate's start, workerd CPU ms: to accepting + to idle");
    const firstColumn = header.indexOf("a fresh isolate's first, workerd CPU ms");
    expect(startColumn).toBeGreaterThan(0);
    expect(firstColumn).toBe(startColumn + 1);
    rows.forEach((row, i) => {
      const cells = row.split(' | ');
      expect(cells[startColumn]).toBe(`${fresh[i].start.acceptCpuMs.toFixed(1)} + ${fresh[i].start.startCpuMs.toFixed(1)}`);
      expect(cells[firstColumn]).toBe(fresh[i].cpuMs.toFixed(1));
    });
  });
});

describe('workerd counts as idle', () => {
  /** A clock that moves only when the wait sleeps; the tree has run or waited `busyAt(ms)` ns by then. */
  const scripted = (busyAt: (ms: number) => number) => {
    let now = 0;
    const clock: SettleClock = { now: () => now, sleep: async (ms) => void (now += ms) };
    return { clock, busy: () => busyAt(now), at: () => now };
  };

  it('once neither running nor waiting to run has moved for a spell, not while the bundle is evaluated', async () => {
    // a core's worth from 0 to 300 ms (the evaluation), nothing after
    const s = scripted((ms) => Math.min(ms, 300) * 1e6);
    expect(await idle(0, s.busy, s.clock)).toBe(true);
    expect(s.at()).toBeGreaterThanOrEqual(300);
  });

  it('not while starved: waiting for a CPU counts as busy', async () => {
    // runs nothing from 0 to 400 ms but waits for a CPU all along (the machine's other work), then nothing
    const s = scripted((ms) => Math.min(ms, 400) * 1e6);
    const starved = (pid: number) => treeBusyNs(pid, () => ({ run: 5e6, wait: s.busy() }));
    expect(await idle(0, starved, s.clock)).toBe(true);
    expect(s.at()).toBeGreaterThanOrEqual(400);
  });

  it('never, if it never stops: false at the timeout', async () => {
    const s = scripted((ms) => ms * 1e6);
    expect(await idle(0, s.busy, s.clock)).toBe(false);
  });
});
