// The build over the state against clean builds: each kind of event edit is patched and gives the
// bytes a clean build gives; what the load over the state must not handle (a problem, another
// kind of file, a damaged state, a dist that is not the one the state describes) loads the
// content whole, which reports exactly what a clean build reports.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { generateContent } from '../gen/content-generator.ts';
import { build, type BuildResult } from './build.ts';
import { listFiles } from '../util/same-files.ts';
import { distCacheFile } from './cache/cache-folder.ts';
import { eventStatePath } from './state/event-state.ts';
import { readPrior } from './state/previous-build.ts';
import { previousFiles } from './render/previous-data.ts';
import { eventPartFiles } from '../store/format/dist-paths.ts';
import { describeFailure } from '../util/failure.ts';

const root = tempDir('aula-patch-');
const content = join(root, 'content');
const out = join(root, 'dist');
const cache = join(root, 'cache');
// rows per event part (a mean): small, so the 120 events are several parts and a patch links the parts it did not change
const eventPartRows = 16;
/** every build with a cache writes its data files as each is made (a large build's way), checked against clean builds that do not */
const manyRows = 1;
// content and cache share this file system's clock: a stat is trusted once it is older than the
// last build (without it, files changed within 2 s of a build are read again: state/stat-fields.ts)
const statMarginNs = 0n;
let cleanRuns = 0;

beforeAll(async () => {
  await generateContent({ events: 120, directory: 60, seed: 11, outDir: content });
  const first = await build({ content, out, cache, eventPartRows, statMarginNs, manyRows });
  expect(first.ok).toBe(true);
});
afterAll(() => removeDir(root));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const digests = (dist: string) => new Map(listFiles(dist).filter((rel) => rel !== 'changes.json').map((rel) => [rel, sha(readFileSync(join(dist, rel)))]));
const problemsOf = (r: BuildResult) => (r.ok ? [] : r.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.key}: ${p.message}`));
const eventFiles = () => listFiles(join(content, 'events')).filter((f) => f.endsWith('.md')).sort().map((f) => `events/${f}`);
const read = (rel: string) => readFileSync(join(content, rel), 'utf8');
const write = (rel: string, text: string) => writeFileSync(join(content, rel), text);
const setKey = (text: string, key: string, value: string) => text.replace(new RegExp(`^${key}: .*$`, 'm'), `${key}: ${value}`);
/** The event parts of `out`, as its manifest lists them, by path. */
const partPaths = () => eventPartFiles(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).map((rel) => join(out, rel));
const statePath = () => eventStatePath(distCacheFile(cache, content, out));

/** Builds with the cache into `out` and without into a clean folder; both must agree. */
async function buildBoth(): Promise<{ result: BuildResult; same: boolean }> {
  const result = await build({ content, out, cache, eventPartRows, statMarginNs, manyRows });
  const cleanOut = join(root, `clean-${cleanRuns++}`);
  const clean = await build({ content, out: cleanOut, eventPartRows });
  expect(problemsOf(result)).toEqual(problemsOf(clean));
  // the count the CLI prints ("N files") is the same whichever way the dist was made
  if (result.ok && clean.ok) expect(result.files).toBe(clean.files);
  const same = !result.ok || JSON.stringify([...digests(out)]) === JSON.stringify([...digests(cleanOut)]);
  removeDir(cleanOut);
  return { result, same };
}

/** What the build over the state did, as the CLI's --timings tells it. */
const patched = (r: BuildResult) => {
  if (!r.ok || !r.patch?.taken) return r.ok ? r.patch : undefined;
  const { counts } = r.manifest;
  return { ...r.patch, parsed: r.cache!.parsed, rendered: r.reuse!.rows.rendered, events: counts.events, answered: counts.event_list_pages - r.reuse!.pages, linked: r.reuse!.pages };
};

describe('patch build', () => {
  it('patches a changed title: one page answered, the rest linked, bytes of a clean build', async () => {
    const rel = eventFiles()[3];
    write(rel, setKey(read(rel), 'title', 'Patched title'));
    const { result, same } = await buildBoth();
    expect(patched(result)).toMatchObject({ taken: true, parsed: 1, rendered: 1, answered: 1 });
    expect(result.ok && result.reuse!.pages).toBeGreaterThan(0);
    expect(same).toBe(true);
  });

  it('writes only the event part holding a changed title: the others are the previous files (same inodes)', async () => {
    const parts = partPaths();
    expect(parts.length).toBeGreaterThan(3);
    const rel = eventFiles()[70];
    const title = 'Only this part changes';
    write(rel, setKey(read(rel), 'title', title));
    const before = parts.map((path) => statSync(path).ino);
    const { result, same } = await buildBoth();
    expect(patched(result)).toMatchObject({ taken: true, parsed: 1, rendered: 1 });
    expect(same).toBe(true);
    const holding = parts.map((path) => readFileSync(path, 'utf8').includes(`"title":"${title}"`));
    expect(holding.filter(Boolean)).toHaveLength(1);
    parts.forEach((path, i) => expect(statSync(path).ino === before[i], `part ${i}`).toBe(!holding[i]));
    expect(partPaths()).toEqual(parts);
  });

  it('writes only the first part or two for an event added at the top of the list, and for its removal: the others are the previous files', async () => {
    const inodes = () => new Map(partPaths().map((path) => [path, statSync(path).ino]));
    const first = inodes();
    const top = 'events/added-at-the-top.md';
    write(top, setKey(setKey(setKey(setKey(read(eventFiles()[5]), 'id', '987600'), 'title', 'Upcoming'), 'start', '2099-01-02T10:00:00'), 'end', '2099-01-02 12:00:00'));
    let run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, events: 121 });
    expect(run.same).toBe(true);
    const added = inodes();
    const kept = (was: Map<string, number>, now: Map<string, number>) => [...now].filter(([path, ino]) => was.get(path) === ino).length;
    expect(kept(first, added)).toBeGreaterThanOrEqual(first.size - 2);
    expect(added.size - kept(first, added)).toBeLessThanOrEqual(2);
    unlinkSync(join(content, top));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, removed: 1, events: 120 });
    expect(run.same).toBe(true);
    const undone = inodes();
    expect([...undone.keys()]).toEqual([...first.keys()]);
    expect(kept(added, undone)).toBeGreaterThanOrEqual(undone.size - 2);
  });

  it('patches an added, a deleted and a moved event (another place in list order) and a changed id', async () => {
    const [a, b, c] = eventFiles().slice(10, 13);
    write('events/added-by-test.md', setKey(setKey(read(a), 'id', '987654'), 'title', 'Added'));
    let run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, events: 121 });
    expect(run.same).toBe(true);

    unlinkSync(join(content, b));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, removed: 1, events: 120 });
    expect(run.same).toBe(true);

    write(c, setKey(setKey(read(c), 'start', '2019-01-02T10:00:00'), 'end', '2019-01-02 12:00:00'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true });
    expect(run.same).toBe(true);

    write(a, setKey(read(a), 'id', '987655'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true });
    expect(run.same).toBe(true);
  });

  it('falls back on a duplicate id, reports it as a clean build does, and patches again once fixed', async () => {
    const [a, b] = eventFiles().slice(20, 22);
    const before = read(b);
    const before_dist = digests(out);
    const id = /^id: (.*)$/m.exec(read(a))![1];
    write(b, setKey(before, 'id', id));
    let run = await buildBoth();
    expect(run.result.ok).toBe(false);
    expect(problemsOf(run.result).join('\n')).toMatch(/duplicate event id/);
    expect(digests(out)).toEqual(before_dist);

    write(b, before);
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true });
    expect(run.same).toBe(true);
  });

  it('falls back on a broken file, and patches once it is fixed', async () => {
    const rel = eventFiles()[30];
    const before = read(rel);
    write(rel, before.replace(/^id: .*$/m, 'id: [unclosed'));
    let run = await buildBoth();
    expect(run.result.ok).toBe(false);
    write(rel, before);
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true });
    expect(run.same).toBe(true);
  });

  it('links every data file when nothing but a file\'s times changed', async () => {
    const rel = eventFiles()[40];
    const inodes = () => partPaths().map((path) => statSync(path).ino);
    const inode = inodes();
    write(rel, read(rel));
    const { result, same } = await buildBoth();
    expect(patched(result)).toMatchObject({ taken: true, parsed: 0, rendered: 0, answered: 0 });
    expect(same).toBe(true);
    expect(inodes()).toEqual(inode);
  });

  it('compresses the autocomplete files again where their twins are not the previous ones', async () => {
    const index = join(out, 'autocomplete', 'index.json');
    rmSync(`${index}.br`);
    const rel = eventFiles()[60];
    write(rel, setKey(read(rel), 'title', 'Twins made again'));
    const { result, same } = await buildBoth();
    expect(patched(result)).toMatchObject({ taken: true, rendered: 1 });
    expect(same).toBe(true);
    // compressed anew: the build over the state links no twin the ledger does not prove
    expect(existsSync(`${index}.br`)).toBe(true);
  });

  it('links the column files whose values stay; falls back when a previous data file is missing or changes once proven', async () => {
    const column = (name: string) => join(out, 'data', 'columns', name);
    const rel = eventFiles()[20];
    const location = statSync(column('location.text.bin')).ino;
    write(rel, setKey(read(rel), 'title', 'Linked columns'));
    let run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, rendered: 1 });
    expect(run.same).toBe(true);
    expect(statSync(column('location.text.bin')).ino).toBe(location);

    // read when first used, a previous file is proven again once read: a change since fails the build
    const options = { content, out, cache, eventPartRows, statMarginNs, manyRows };
    const data = previousFiles(readPrior(options, out).build!, out)!;
    expect(Buffer.from(data.file('data/columns/location.text.bin')).equals(readFileSync(column('location.text.bin')))).toBe(true);
    writeFileSync(column('title.text.bin'), readFileSync(column('title.text.bin')));
    expect(() => data.file('data/columns/title.text.bin')).toThrow(/changed while the build ran/);
    write(rel, setKey(read(rel), 'title', 'After a column was rewritten'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: false });
    expect(run.same).toBe(true);

    unlinkSync(column('title.text.bin'));
    write(rel, setKey(read(rel), 'title', 'Without the previous title column'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: false });
    expect(run.same).toBe(true);
    write(rel, setKey(read(rel), 'title', 'Patched again'));
    expect(patched((await buildBoth()).result)).toMatchObject({ taken: true });
  });

  it('a previous autocomplete file gone, or a FIFO, once the load proved it: the build fails in one line saying to build again, and never waits on the FIFO', async () => {
    const index = join(out, 'autocomplete', 'index.json');
    const rel = eventFiles()[22];
    /** a build over the state whose previous index.json is replaced by `swap` as the render begins (after the load proved it) */
    const failure = async (title: string, swap: () => void) => {
      write(rel, setKey(read(rel), 'title', title));
      const progress = (phase: string) => void (phase === 'render data' && swap());
      return build({ content, out, cache, eventPartRows, statMarginNs, manyRows, progress }).then(() => 'built', describeFailure);
    };
    expect(await failure('Autocomplete file gone', () => unlinkSync(index))).toBe('unexpected error: autocomplete/index.json of the previous dist changed while the build ran; build again');
    // (not over the state: the dist it describes has lost a file)
    expect(patched((await buildBoth()).result)).toMatchObject({ taken: false });
    const fifo = () => (unlinkSync(index), spawnSync('mkfifo', [index]));
    expect(await failure('Autocomplete file a FIFO', fifo)).toMatch(/^unexpected error: autocomplete\/index\.json of the previous dist changed while the build ran; build again$/);
    rmSync(index);
    expect((await buildBoth()).same).toBe(true);
  });

  it('takes a changed directory over the state, its indexes made anew; a directory problem is reported as a clean build does', async () => {
    const dir = listFiles(join(content, 'directory')).sort().map((f) => `directory/${f}`);
    const before = read(dir[0]);
    write(dir[0], before.replace(/^ {2}(last_name|name): .*$/m, '  $1: Verzeichnisname'));
    let run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, parsed: 0, rendered: 0 });
    expect(run.same).toBe(true);
    expect(readFileSync(join(out, 'autocomplete/index.json'), 'utf8')).toContain('Verzeichnisname');

    // a file added with the ids of another: the whole load reports it
    write('directory/repeat.yaml', read(dir[1]));
    run = await buildBoth();
    expect(run.result.ok).toBe(false);
    expect(problemsOf(run.result).join('\n')).toMatch(/directory\/repeat\.yaml:.* id/);

    // back as before, over the last good build: taken over it, its indexes made again and the dist a clean build's
    unlinkSync(join(content, 'directory/repeat.yaml'));
    write(dir[0], before);
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true });
    expect(run.same).toBe(true);
  });

  it('does not patch with a damaged or missing state, after an edit to the pages or a category gone, or over another dist; takes the categories over it', async () => {
    const rel = eventFiles()[50];
    const state = readFileSync(statePath());
    const flipped = Buffer.from(state);
    flipped[Math.floor(flipped.length / 2)] ^= 0x5a;
    writeFileSync(statePath(), flipped);
    write(rel, setKey(read(rel), 'title', 'After damage'));
    let run = await buildBoth();
    expect(patched(run.result)).toEqual({ taken: false, reason: 'no usable event state' });
    expect(run.same).toBe(true);

    // the full build wrote a new state: the next event edit patches again
    write(rel, setKey(read(rel), 'title', 'After damage, again'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true });

    // the categories over the state: every row stays (they hold the ids alone); one gone refuses
    const categories = read('categories.yaml');
    write('categories.yaml', categories.replace(/^ {2}title: .*$/m, '  title: Geänderte Kategorie'));
    write(rel, setKey(read(rel), 'title', 'With a category'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, parsed: 1, rendered: 1 });
    expect(run.same).toBe(true);
    expect(readFileSync(join(out, 'data/categories.json'), 'utf8')).toContain('Geänderte Kategorie');
    write('categories.yaml', `${categories}- id: 9999\n  title: Neue Kategorie\n`);
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: true, parsed: 0, rendered: 0 });
    expect(run.same).toBe(true);
    // a category no event names removed (9999, added just before): refused all the same, as a kept row might name it
    write('categories.yaml', categories);
    run = await buildBoth();
    expect(run.result.ok).toBe(true);
    expect(patched(run.result)).toMatchObject({ taken: false, reason: 'a category was removed' });
    expect(run.same).toBe(true);
    // one events name: both builds fail alike
    write('categories.yaml', categories.replace(/^- id: [0-9]+\n(?: {2}.*\n)*/m, ''));
    run = await buildBoth();
    expect(run.result.ok).toBe(false);
    expect(run.same).toBe(true);
    write('categories.yaml', categories);
    expect((await buildBoth()).same).toBe(true);
    write('pages.yaml', read('pages.yaml').replace(/^ {2}title: .*$/m, '  title: Geänderte Seite'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: false, reason: 'pages.yaml changed' });
    expect(run.same).toBe(true);

    // a build without cache into the same folder: its dist is not the one the state describes
    await build({ content, out, eventPartRows });
    write(rel, setKey(read(rel), 'title', 'Over another dist'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: false });
    expect(run.same).toBe(true);

    unlinkSync(statePath());
    write(rel, setKey(read(rel), 'title', 'Without a state'));
    run = await buildBoth();
    expect(patched(run.result)).toMatchObject({ taken: false, reason: 'no usable event state' });
    expect(run.same).toBe(true);
    expect(readdirSync(cache).some((f) => f.endsWith('.events'))).toBe(true);
  });
});
