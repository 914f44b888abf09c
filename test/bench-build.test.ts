// The bench's build measurements (issue 16): reading `aula build --timings`, the content edits it
// times, peak RSS of a real process tree, the dist comparison, and the report rows. No timing is
// asserted; memory is, as a lower bound of what the measured processes really allocated.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareDists, medianRun, type BuildRuns } from '../bench/build-runs.ts';
import { probeFileCreation } from '../bench/file-creation.ts';
import { frontMatterValue, markdownEvents, setFrontMatter, unusedEventId } from '../bench/content-edits.ts';
import { parseBuildOutput, type MeasuredRun } from '../bench/measured-run.ts';
import { combinePeaks, parseRusage, PRELOAD, sampleTree } from '../bench/peak-rss.ts';
import { spawnTracked } from '../bench/processes.ts';
import { buildOnlyMarkdown, buildRows, phaseSection, TARGETS, type BuildFigures } from '../bench/report.ts';
import { removeDir, tempDir, writeContent } from './helpers.ts';

const root = tempDir('aula-bench-build-');
afterAll(() => removeDir(root));
const MiB = 1024 ** 2;

describe('parseBuildOutput', () => {
  it('reads the summary, the phases in order (names with spaces) and the cache line after it', () => {
    const text = [
      'aula build: load content',
      'aula build: swap',
      'built /tmp/d/ in 9.61 s: 2000 events (100 static pages), 4000 directory objects, 128 files; base URL http://127.0.0.1:8000',
      '  load content   4.54 s, 7.80 s CPU',
      '  answer pages   1.66 s, 2.10 s CPU',
      '  swap           0.00 s',
      '  cache          12 files reused, 1550 parsed',
      '',
    ].join('\n');
    expect(parseBuildOutput(text)).toEqual({
      summary: 'built /tmp/d/ in 9.61 s: 2000 events (100 static pages), 4000 directory objects, 128 files; base URL http://127.0.0.1:8000',
      phases: [['load content', 4.54], ['answer pages', 1.66], ['swap', 0]],
      cpu: [['load content', 7.8], ['answer pages', 2.1]],
      cache: { reused: 12, parsed: 1550 },
    });
  });

  it('finds no phases without a summary line, and none before it', () => {
    expect(parseBuildOutput('  load content   4.54 s\n')).toEqual({ summary: '', phases: [] });
    expect(parseBuildOutput('  early   1.00 s\nbuilt x in 1 s\n').phases).toEqual([]);
  });
});

describe('content edits', () => {
  const text = '---\nid: 17\ntitle: "Old: title"\npage: 3\n---\n\ntitle: not front matter\nid: 99\n';

  it('replaces one front-matter line and nothing in the body', () => {
    const edited = setFrontMatter(text, 'title', JSON.stringify('New "one"'));
    expect(edited).toBe('---\nid: 17\ntitle: "New \\"one\\""\npage: 3\n---\n\ntitle: not front matter\nid: 99\n');
    expect(frontMatterValue(edited, 'id')).toBe('17');
    expect(frontMatterValue(setFrontMatter(text, 'id', '18'), 'id')).toBe('18');
  });

  it('refuses a file without front matter or without the key', () => {
    expect(() => setFrontMatter('id: 1\n', 'id', '2')).toThrow(/front matter/);
    expect(() => setFrontMatter('---\nid: 1\n', 'id', '2')).toThrow(/not closed/);
    expect(() => setFrontMatter(text, 'teaser', '"x"')).toThrow(/no teaser: line/);
  });

  it('lists the Markdown events sorted and finds an id above every one in the events folder', () => {
    const content = writeContent(join(root, 'content'), {
      'events/b/2.md': '---\nid: 5\n---\n',
      'events/a/1.md': '---\nid: 3\n---\n',
      'events/list.yaml': '- id: 40\n  related_media:\n    - id: 7\n',
      'events/import.json': '[{"id": 41}]',
      'directory/x.yaml': '- id: 1000\n',
    });
    expect(markdownEvents(content)).toEqual(['events/a/1.md', 'events/b/2.md']);
    expect(unusedEventId(content)).toBe(42);
  });
});

describe('peak RSS of a process tree', () => {
  it('keeps the larger of the reported and the sampled peak per process, sums them and skips torn lines', () => {
    const reported = parseRusage('{"pid":1,"maxRssBytes":300,"userUs":1000,"systemUs":500}\n{"pid":2,"maxRss\n\n');
    expect(reported).toHaveLength(1);
    const peak = combinePeaks(new Map([[1, 200], [2, 50]]), reported, 240);
    expect(peak).toEqual({ peakRssBytes: 350, sampledRssBytes: 240, processes: 2, cpuMs: 1.5 });
    expect(combinePeaks(new Map([[1, 10]]), [], 10).cpuMs).toBeUndefined();
  });

  it('measures at least what a parent and its child really touched', async () => {
    const rusage = join(root, 'rusage.jsonl');
    // the child allocates 120 MiB and lives 2 s (the sampler, every 20 ms, sees it however busy the
    // machine); the parent 80 MiB after the child has ended
    const child = `const b = Buffer.alloc(120 * 2 ** 20, 1); setTimeout(() => b.length, 2000);`;
    const parent =
      `const { spawnSync } = require('node:child_process');` +
      `spawnSync(process.execPath, ['--import', ${JSON.stringify(PRELOAD)}, '-e', ${JSON.stringify(child)}], { stdio: 'inherit' });` +
      `const b = Buffer.alloc(80 * 2 ** 20, 1); setTimeout(() => b.length, 100);`;
    const proc = spawnTracked(process.execPath, ['--import', PRELOAD, '-e', parent], { env: { ...process.env, AULA_BENCH_RUSAGE: rusage } });
    const sampler = sampleTree(proc.child.pid!, rusage, 20);
    expect(await proc.exited).toBe(0);
    const peak = sampler.stop();
    expect(peak.processes).toBe(2);
    expect(peak.peakRssBytes).toBeGreaterThan(200 * MiB);
    expect(peak.peakRssBytes).toBeLessThan(2048 * MiB);
    expect(peak.sampledRssBytes).toBeGreaterThan(120 * MiB);
    expect(peak.cpuMs).toBeGreaterThan(0);
  });

  it('counts a process with worker threads once', async () => {
    const rusage = join(root, 'rusage-threads.jsonl');
    // a worker from a file, as the build's are (the preload does not run in an eval'd one)
    const worker = join(root, 'spin.js');
    writeFileSync(worker, 'let x = 0; for (let i = 0; i < 3e7; i++) x += i;');
    const script =
      `const { Worker } = require('node:worker_threads');` +
      `const done = () => new Promise((r) => new Worker(${JSON.stringify(worker)}).once('exit', r));` +
      `Promise.all([done(), done()]).then(() => {});`;
    const proc = spawnTracked(process.execPath, ['--import', PRELOAD, '-e', script], { env: { ...process.env, AULA_BENCH_RUSAGE: rusage } });
    expect(await proc.exited).toBe(0);
    const lines = parseRusage(readFileSync(rusage, 'utf8'));
    expect(lines.map((l) => l.pid)).toEqual([proc.child.pid]);
  });
});

describe('compareDists', () => {
  const dist = (name: string, files: Record<string, string>) => writeContent(join(root, name), files);

  it('ignores changes.json and names the files that differ, are missing or extra', () => {
    const a = dist('a', { 'manifest.json': '{}', 'v1/x.json': 'same', 'changes.json': '["a"]' });
    const b = dist('b', { 'manifest.json': '{}', 'v1/x.json': 'same', 'changes.json': '["b", "c"]' });
    expect(compareDists(a, b)).toEqual({ files: 2, differing: [], differingCount: 0 });
    writeFileSync(join(b, 'v1/x.json'), 'samE');
    mkdirSync(join(b, 'v2'));
    writeFileSync(join(b, 'v2/extra.json'), '');
    writeFileSync(join(a, 'only-a.json'), '');
    expect(compareDists(a, b)).toEqual({ files: 3, differing: ['only-a.json', 'v1/x.json', 'v2/extra.json'], differingCount: 3 });
  });
});

describe('probeFileCreation', () => {
  it('creates its files in a new folder, leaves them there, and gives the median time of one', () => {
    const dir = join(root, 'probe', 'here');
    const us = probeFileCreation(dir, 50);
    expect(us).toBeGreaterThan(0);
    expect(readdirSync(dir)).toHaveLength(50);
    expect(readFileSync(join(dir, '0.json')).length).toBe(4096);
    // a second probe into the same folder would overwrite its files: it refuses instead
    expect(() => probeFileCreation(dir, 1)).toThrow(/EEXIST/);
  });
});

describe('report: the build rows', () => {
  const run = (wallS: number, peakMiB: number, phases: [string, number][] = [], parsed?: number): MeasuredRun => ({
    wallMs: wallS * 1000,
    cpuMs: wallS * 900,
    peakRssBytes: peakMiB * MiB,
    sampledRssBytes: peakMiB * MiB,
    processes: 1,
    summary: 'built',
    phases,
    cache: parsed === undefined ? undefined : { parsed, reused: 1000 - parsed },
  });
  const builds = (over: Partial<BuildRuns> = {}): BuildRuns => ({
    cold: run(18.5, 900, [['load content', 6.1], ['compress', 3.2]], 1000),
    coldRuns: [run(18.5, 900, [['load content', 6.1], ['compress', 3.2]], 1000)],
    change: run(1.4, 400, [['load content', 0.3], ['carry over', 0.1]], 1),
    added: run(2.6, 410),
    deleted: run(2.5, 405),
    restored: run(1.5, 400),
    noCache: run(15.5, 880, [['load content', 7]]),
    identical: { files: 5000, differing: [], differingCount: 0 },
    files: { changed: 'events/2025/01/a.md', added: 'events/bench/added-event.md', deleted: 'events/2025/01/b.md' },
    ...over,
  });
  const figures = (over: Partial<BuildFigures> = {}): BuildFigures => ({
    generate: { files: 76_000, bytes: 355 * MiB, ms: 40_000 },
    dist: { bytes: 700 * MiB, files: 5001 },
    build: builds(),
    dev: { available: true, file: 'events/2025/01/a.md', startMs: 30_000, editMs: 900, peakRssBytes: 1200 * MiB, sampledRssBytes: 1100 * MiB, processes: 1 },
    ...over,
  });
  const row = (rows: string[], start: string) => rows.find((r) => r.startsWith(`| ${start}`));

  it('judges the cold build, its peak RSS, the one-event edits and aula dev against issue 33', () => {
    const rows = buildRows(figures());
    expect(row(rows, 'cold build, build cache on')).toMatch(/\| 18\.50 s \(CPU 16\.7 s\) \| ≤ 20 s \| met \|$/);
    expect(row(rows, 'cold build, cache on: peak RSS')).toMatch(/\| 900\.0 MiB \| ≤ 1 GB \(953\.7 MiB\) \| met \|$/);
    expect(row(rows, "one event's title changed (`events/2025/01/a.md`)")).toMatch(/\| 1\.40 s \(CPU 1\.3 s\) \/ 400\.0 MiB \| ≤ 2 s \| met \|$/);
    expect(row(rows, 'one event added')).toMatch(/\| 2\.60 s \(CPU 2\.3 s\) \/ 410\.0 MiB \| ≤ 4 s \| met \|$/);
    expect(row(rows, 'one event deleted')).toMatch(/\| 2\.50 s \(CPU 2\.3 s\) \/ 405\.0 MiB \| ≤ 4 s \| met \|$/);
    expect(row(rows, 'dist after the edits')).toMatch(/byte-identical \(5,000 files\) \| identical \| met \|$/);
    expect(row(rows, '`aula dev`: edit saved')).toMatch(/\| 0\.90 s \| ≤ 1 s \| met \|$/);
    expect(row(rows, 'cold build `--no-cache`')).toMatch(/15\.50 s \(CPU 14\.0 s\) \/ 880\.0 MiB \| ≤ 16 s \| met \|$/);
  });

  it('judges several cold builds on their median time and their highest peak, and lists them all', () => {
    const runs = [run(24.1, 900), run(19.2, 960), run(19.9, 880)];
    const rows = buildRows(figures({ build: builds({ cold: medianRun(runs), coldRuns: runs }) }));
    expect(medianRun(runs)).toBe(runs[2]);
    expect(row(rows, 'cold build, build cache on')).toMatch(/\| median 19\.90 s \(CPU 17\.9 s\) of 3 runs: 24\.10 s, 19\.20 s, 19\.90 s \| ≤ 20 s \| met \|$/);
    expect(row(rows, 'cold build, cache on: peak RSS')).toMatch(/\| highest 960\.0 MiB of 3 runs: 900\.0 MiB, 960\.0 MiB, 880\.0 MiB \| ≤ 1 GB \(953\.7 MiB\) \| \*\*missed\*\* \|$/);
    expect(medianRun([runs[0], runs[1]])).toBe(runs[1]);
  });

  it('marks every miss, a differing dist and an unmeasured aula dev', () => {
    const rows = buildRows(figures({
      build: builds({
        cold: run(21, 1000),
        change: run(2.01, 300),
        added: run(4.2, 410),
        deleted: run(4.01, 405),
        noCache: run(16.2, 880),
        identical: { files: 10, differing: ['v1/a.json', 'v1/b|c.json'], differingCount: 2 },
      }),
      dev: { available: false, reason: 'the edit was not served within 120 s (last answer: 200)' },
    }));
    expect(row(rows, 'cold build, build cache on')).toMatch(/\*\*missed\*\* \|$/);
    expect(row(rows, 'cold build, cache on: peak RSS')).toMatch(/1,000\.0 MiB .*\*\*missed\*\* \|$/);
    expect(row(rows, "one event's title changed")).toMatch(/\*\*missed\*\* \|$/);
    expect(row(rows, 'one event added')).toMatch(/\| ≤ 4 s \| \*\*missed\*\* \|$/);
    expect(row(rows, 'one event deleted')).toMatch(/\| ≤ 4 s \| \*\*missed\*\* \|$/);
    expect(row(rows, 'cold build `--no-cache`')).toMatch(/\| ≤ 16 s \| \*\*missed\*\* \|$/);
    expect(row(rows, 'dist after the edits')).toContain('2 files differ: `v1/a.json`, `v1/b\\|c.json` | identical | **missed** |');
    expect(row(rows, '`aula dev`: edit saved')).toMatch(/not measured \(the edit was not served.*\| ≤ 1 s \| \*\*missed\*\* \|$/);
    expect(rows.every((r) => r.split(/(?<!\\)\|/).length === 6)).toBe(true);
    expect(TARGETS.buildPeakRssBytes).toBe(1e9);
  });

  it('says how long a file took to create where each cold build wrote, and when that was slowed', () => {
    const probed = (r: MeasuredRun, us: number) => ({ ...r, createMicros: us });
    // none probed (an older run's figures): no row
    expect(row(buildRows(figures()), 'a new file created')).toBeUndefined();
    const runs = [probed(run(19, 900), 16), probed(run(20, 900), 18), probed(run(21, 900), 15)];
    const normal = row(buildRows(figures({ build: builds({ cold: medianRun(runs), coldRuns: runs, noCache: probed(run(17, 880), 17) }) })), 'a new file created');
    expect(normal).toMatch(/\| cache on: 16 µs, 18 µs, 15 µs; `--no-cache`: 17 µs \| – \| – \|$/);
    expect(normal).not.toContain('slowed');
    const slowed = [probed(run(26, 900), 16), probed(run(27, 900), 540), probed(run(25, 900), 15)];
    const row2 = row(buildRows(figures({ build: builds({ cold: medianRun(slowed), coldRuns: slowed, noCache: probed(run(17, 880), 17) }) })), 'a new file created');
    expect(row2).toContain('cache on: 16 µs, 540 µs, 15 µs');
    expect(row2).toMatch(/\*\*slowed\*\* \(over 100 µs.*\| – \| – \|$/);
    expect(row2!.split(/(?<!\\)\|/).length).toBe(6);
  });

  it('says how long the writes before each build took to flush, and when a flush failed', () => {
    // none flushed (an older run's figures): no row
    expect(row(buildRows(figures()), 'writes of what ran before')).toBeUndefined();
    const flushed = (r: MeasuredRun, ms: number | null) => ({ ...r, flushMs: ms });
    const runs = [flushed(run(19, 900), 2100), flushed(run(20, 900), 1900), flushed(run(21, 900), null)];
    const b = builds({ cold: medianRun(runs), coldRuns: runs, noCache: flushed(run(17, 880), 50) });
    const line = row(buildRows(figures({ build: { ...b, change: flushed(b.change, 2300) } })), 'writes of what ran before');
    expect(line).toContain('`--no-cache` 0.05 s, cold 1 2.10 s, cold 2 1.90 s, cold 3 **not flushed** (sync failed), title changed 2.30 s, added –');
    expect(line!.split(/(?<!\\)\|/).length).toBe(6);
  });

  it('puts every phase of every build in one table, in the order they ran, with files parsed and the process totals', () => {
    const table = phaseSection(builds());
    expect(table[0]).toBe('## Build phases');
    expect(table).toContain('| phase | cold, cache on | cold, --no-cache | title changed | event added | event deleted |');
    expect(table).toContain('| load content | 6.10 | 7.00 | 0.30 | – | – |');
    expect(table).toContain('| compress | 3.20 | – | – | – | – |');
    expect(table).toContain('| carry over | – | – | 0.10 | – | – |');
    expect(table.findIndex((l) => l.startsWith('| compress'))).toBeLessThan(table.findIndex((l) => l.startsWith('| carry over')));
    expect(table).toContain('| content files parsed / reused | 1,000 / 0 | – | 1 / 999 | – | – |');
    expect(table).toContain('| **process start to exit** | **18.50** | **15.50** | **1.40** | **2.60** | **2.50** |');
    expect(table).toContain('| peak RSS, MiB | 900 | 880 | 400 | 410 | 405 |');
  });

  it('renders a builds-only run with the table and the phases', () => {
    const md = buildOnlyMarkdown({
      ...figures(),
      started: new Date('2026-11-23T15:00:00Z'),
      finished: new Date('2026-11-23T15:05:00Z'),
      loadavg: { start: 1, end: 2 },
      settings: { events: 100_000, directory: 200_000, seed: 1 },
    });
    expect(md).toContain('the run took 300 s');
    expect(md).toContain('- content: 100,000 events, 200,000 directory objects (generator seed 1)');
    expect(md.indexOf('## Build, start, memory')).toBeLessThan(md.indexOf('## Build phases'));
    expect(md).toContain('| dist size | 700.0 MiB');
  });
});
