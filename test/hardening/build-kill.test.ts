// kill -9 during `aula build`: the previous dist/ stays byte-identical and servable whatever the
// moment, and the next build succeeds and clears what the killed ones left behind.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/core.ts';
import { recoverDist } from '../../src/pipeline/out-folder/swap.ts';
import { generateContent } from '../../src/gen/content-generator.ts';
import { loadDataset } from '../../src/query/dataset.ts';
import { REST_MS, SPARE_RECORD } from '../../src/util/spare-files.ts';
import { startAula } from '../aula-cli.ts';
import { copyOfSampleDist, removeDir, tempDir, writeContent } from '../helpers.ts';

const EVENTS = 6_000;

let root: string;
let big: string;
let dist: string;
let before: Map<string, string>;

/** Every file under `dir` → sha1 of its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** What builds leave beside dist/ but the spares they keep on purpose (util/spare-files.ts). */
const leftovers = () => readdirSync(root).filter((e) => e.startsWith('.aula-') && e !== '.aula-spare-dist');
const spareFolder = () => join(root, '.aula-spare-dist');
const spares = () => (existsSync(spareFolder()) ? readdirSync(spareFolder()).filter((n) => !n.startsWith('.')) : []);

/** Every file the spare record names is as the record says (what aula moved there), or gone. */
function expectSparesRecorded() {
  const [head, ...lines] = readFileSync(join(spareFolder(), SPARE_RECORD), 'utf8').split('\n');
  expect(head).toBe('aula spares 1');
  for (const [name, id] of lines.map((line) => line.split('\t'))) {
    const s = lstatSync(join(spareFolder(), name), { bigint: true, throwIfNoEntry: false });
    if (s !== undefined) expect(`${s.ino}:${s.size}:${s.mtimeNs}:${s.mode}`, name).toBe(id);
  }
}

function expectServable(dir: string, events: number) {
  const ds = loadDataset(dir);
  expect(ds.events.table.length).toBe(events);
  const answer = createApi(ds)({ method: 'GET', path: '/v1/cms/event/', query: 'limit=3&title__icontains=a', headers: {} });
  expect(answer.status).toBe(200);
}

function runBuild(content: string, ...extra: string[]) {
  const build = startAula(['build', '--content', content, '--out', dist, ...extra]);
  return {
    exited: build.exited.then(({ code, signal, out, err }) => ({ code, signal, output: `${out}${err}` })),
    pid: build.child.pid!,
    kill: () => build.child.kill('SIGKILL'),
  };
}

/** how long a build may take to reach a moment before the test gives up: a safety net only */
const NEVER_MS = 300_000;

/** The staging folder of the build with `pid`, if it has made one yet. */
function stagingOf(pid: number): string | null {
  const name = readdirSync(root).find((e) => e.startsWith(`.aula-tmp-dist-${pid}-`));
  return name ? join(root, name) : null;
}

/** Kills a build of the big content at the first moment `ready` holds (checked every 10 ms); `ms` is that moment's time since its start. */
async function killWhen(label: string, ready: (pid: number, ms: number) => boolean): Promise<number> {
  const build = runBuild(big);
  const started = Date.now();
  let finished = false;
  void build.exited.then(() => (finished = true));
  while (!finished && !ready(build.pid, Date.now() - started)) {
    if (Date.now() - started > NEVER_MS) throw new Error(`${label}: never reached`);
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(finished, `${label}: the build ended before it could be killed`).toBe(false);
  build.kill();
  const { signal } = await build.exited;
  expect(signal).toBe('SIGKILL');
  return Date.now() - started;
}

beforeAll(async () => {
  root = tempDir('aula-kill-');
  big = join(root, 'big');
  dist = join(root, 'dist');
  await generateContent({ events: EVENTS, directory: 300, seed: 7, outDir: big });
  copyOfSampleDist(dist);
  before = snapshot(dist);
});
afterAll(() => removeDir(root));

describe('kill -9 during aula build', () => {
  it('leaves the previous dist/ byte-identical and servable at every moment; the next build succeeds and cleans up', async () => {
    const exists = (pid: number, rel: string) => {
      const staging = stagingOf(pid);
      return staging !== null && existsSync(join(staging, rel));
    };
    const moments: [string, (pid: number, ms: number) => boolean][] = [
      ['after 300 ms (loading content)', (_, ms) => ms >= 300],
      // the data files go first and the manifest last, all at once: this is just after them
      ['once the data is written (answering pages)', (pid) => exists(pid, 'manifest.json')],
      ['while the static pages are written', (pid) => exists(pid, 'v1/cms/event/index.json')],
    ];
    for (const [label, ready] of moments) {
      const ms = await killWhen(label, ready);
      expect(snapshot(dist), `${label}, killed after ${ms} ms`).toEqual(before);
      expectServable(dist, 200);
    }
    // the killed builds left their staging folders behind …
    expect(leftovers().length).toBeGreaterThan(0);
    // … the next build succeeds, replaces dist/ and removes them
    const next = runBuild(big);
    const { code, output } = await next.exited;
    expect(code, output).toBe(0);
    expect(leftovers()).toEqual([]);
    expectServable(dist, EVENTS);
  });

  it('killed while it writes into the spares an earlier build kept: dist/ stays whole, and the next build takes them or leaves them as recorded', async () => {
    // an event at the top of the list changes every list page: the build frees them all, kept as spares
    const top = join(big, 'events', 'top.yaml');
    writeFileSync(top, 'id: 99999999\ntitle: On top\nstart: 2099-01-02T10:00\nend: 2099-01-02T12:00\nlast_modified: 2026-01-01T00:00:00Z\n');
    const added = await runBuild(big).exited;
    unlinkSync(top);
    expect(added.code, added.output).toBe(0);
    const kept = spares().length;
    expect(kept).toBeGreaterThan(EVENTS / 20);
    // a spare rests REST_MS before a build writes into it: the record says they were kept that long ago
    const record = join(spareFolder(), SPARE_RECORD);
    writeFileSync(record, readFileSync(record, 'utf8').replace(/\t(\d+)$/gm, (_, kept: string) => `\t${Number(kept) - REST_MS}`));
    const now = snapshot(dist);
    await killWhen('while the static pages are written into spares', (pid) => existsSync(join(stagingOf(pid) ?? root, 'v1/cms/event/offset')) && spares().length < kept);
    expect(snapshot(dist)).toEqual(now);
    expectServable(dist, EVENTS + 1);
    expectSparesRecorded();
    const { code, output } = await runBuild(big).exited;
    expect(code, output).toBe(0);
    expect(leftovers()).toEqual([]);
    expectSparesRecorded();
    // the same bytes as a build that writes every file new
    const clean = join(root, 'clean');
    expect((await startAula(['build', '--content', big, '--out', clean, '--no-cache']).exited).code).toBe(0);
    const [built, fresh] = [snapshot(dist), snapshot(clean)];
    for (const files of [built, fresh]) files.delete('changes.json');
    expect(built).toEqual(fresh);
  });

  it('a kill between the two renames of the swap is repaired by the next build, even a failing one', async () => {
    const now = snapshot(dist);
    // what a kill right after `rename(dist, parked)` leaves: no dist/, the old tree parked
    renameSync(dist, join(root, '.aula-old-dist-999999999-1'));
    const broken = writeContent(join(root, 'broken'), { 'events/x.yaml': 'id: 1\ntitle: x\n' });
    const { code, output } = await runBuild(broken).exited;
    expect(code).toBe(1);
    expect(output).toMatch(/start/);
    expect(snapshot(dist)).toEqual(now);
    expect(leftovers()).toEqual([]);
    // and in-process, recoverDist alone puts the newest parked tree back
    renameSync(dist, join(root, '.aula-old-dist-999999999-2'));
    await recoverDist(dist);
    expect(snapshot(dist)).toEqual(now);
  });

  it('Ctrl-C (SIGINT) or SIGTERM: the build removes its staging folder and lock before it ends, in one line', async () => {
    // Node's default ended the process at once: the lock and hundreds of MB of staging stayed in
    // the project (in `git status`) until the next build.
    const now = snapshot(dist);
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      // (no cache: with one, the second build is quick enough to end before it is stopped)
      const build = runBuild(big, '--no-cache');
      let finished = false;
      void build.exited.then(() => (finished = true));
      // once its staging folder is there (a signal is seen between two turns of the event loop:
      // much later, and the build may end first)
      const started = Date.now();
      while (!finished && stagingOf(build.pid) === null) {
        if (Date.now() - started > NEVER_MS) throw new Error('no staging folder was made');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(finished, 'the build ended before it could be stopped').toBe(false);
      process.kill(build.pid, signal);
      const exit = await build.exited;
      expect(exit.code, exit.output).toBe(code);
      expect(exit.output.trimEnd().split('\n').at(-1)).toBe(`aula: stopped by ${signal}; the previous dist stays as it was`);
      expect(leftovers()).toEqual([]);
      expect(snapshot(dist)).toEqual(now);
    }
  });
});
