// The load over the state with many event files changed at once (a checkout of another branch, a
// generator run): past `poolFrom` they are parsed as a whole load parses them (the parse pool), and
// the build stays one over the state, with the bytes of a clean build; a problem among them is
// reported as a clean build reports it, over the state; files only touched are not parsed. Added
// files with problems are reported from their records, over the state, as a clean build reports
// them, as is one repeating the id of an event that stays (told in both files), and the directory's
// problems where it changed.
import { readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { generateContent } from '../../gen/content-generator.ts';
import { build, type BuildResult } from '../build.ts';
import { listFiles } from '../../util/same-files.ts';
import { distCacheFile } from '../cache/cache-folder.ts';
import { parseKey } from '../cache/keys.ts';
import { eventStatePath, openEventState, stateOf } from '../state/event-state.ts';
import { EVENTS_KIND, fileStat, KEY_BYTES, putStat, STAT_FIELDS } from '../state/stat-fields.ts';

const root = tempDir('aula-state-load-');
const content = join(root, 'content');
const out = join(root, 'dist');
const cache = join(root, 'cache');
const statMarginNs = 0n;
/** past 100 changed files the parse pool parses them (in a source checkout, on this thread: parse-pool.ts COMPILED) */
const poolFrom = 100;
let cleanRuns = 0;

const eventFiles = () => listFiles(join(content, 'events')).filter((f) => f.endsWith('.md')).sort().map((f) => `events/${f}`);
const directoryFiles = () => listFiles(join(content, 'directory')).filter((f) => f.endsWith('.yaml')).sort().map((f) => `directory/${f}`);
const read = (rel: string) => readFileSync(join(content, rel), 'utf8');
/** a new file moved over the old (as editors and checkouts do) */
const write = (rel: string, text: string) => {
  writeFileSync(join(content, `${rel}.new`), text);
  renameSync(join(content, `${rel}.new`), join(content, rel));
};
const removeFile = (rel: string) => rmSync(join(content, rel));
const setTitle = (text: string, title: string) => text.replace(/^title: .*$/m, `title: ${title}`);
const problemsOf = (r: BuildResult) => (r.ok ? [] : r.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.key}: ${p.message}`));
const bytes = (dist: string) => listFiles(dist).filter((rel) => rel !== 'changes.json').map((rel) => [rel, readFileSync(join(dist, rel)).toString('base64')]);

/** Builds over the state into `out` and clean into another folder: both must agree. */
async function buildBoth(): Promise<{ result: BuildResult; same: boolean; clean: BuildResult }> {
  const result = await build({ content, out, cache, statMarginNs, poolFrom });
  const cleanOut = join(root, `clean-${cleanRuns++}`);
  const clean = await build({ content, out: cleanOut });
  const same = !result.ok || JSON.stringify(bytes(out)) === JSON.stringify(bytes(cleanOut));
  removeDir(cleanOut);
  return { result, same, clean };
}

beforeAll(async () => {
  await generateContent({ events: 300, directory: 20, seed: 5, outDir: content });
  expect(eventFiles().length).toBeGreaterThan(150);
  expect((await build({ content, out, cache, statMarginNs, poolFrom })).ok).toBe(true);
}, 120_000);
afterAll(() => removeDir(root));

describe('the load over the state, many event files changed', () => {
  it('parses 120 changed files (past poolFrom) over the state, not the content whole, with the bytes of a clean build', async () => {
    const files = eventFiles().slice(0, 120);
    files.forEach((rel, i) => write(rel, setTitle(read(rel), `Changed ${i}`)));
    const { result, same } = await buildBoth();
    expect(result.ok && result.patch).toMatchObject({ taken: true });
    expect(result.ok && result.cache!.parsed).toBe(120);
    expect(result.ok && result.reuse!.rows.rendered).toBe(120);
    expect(same).toBe(true);
    // their stats and keys are recorded as parsed: the next build reads none of them
    const again = await build({ content, out, cache, statMarginNs, poolFrom });
    expect(again.ok && again.patch).toMatchObject({ taken: true });
    expect(again.ok && again.cache!.parsed).toBe(0);
  }, 120_000);

  it('reports a problem among many changed files as a clean build does', async () => {
    const files = eventFiles().slice(0, 120);
    files.forEach((rel, i) => write(rel, setTitle(read(rel), `Again ${i}`)));
    const broken = files[117];
    const before = read(broken);
    write(broken, before.replace(/^id: .*$/m, 'id: [unclosed'));
    const { result, clean } = await buildBoth();
    expect(result.ok).toBe(false);
    expect(problemsOf(result)).toEqual(problemsOf(clean));
    expect(problemsOf(result).join('\n')).toContain(broken);
    expect(!result.ok && result.patch).toMatchObject({ taken: true });
    write(broken, before);
    const fixed = await buildBoth();
    // (the prior is the last good build's: every file changed since it is parsed)
    expect(fixed.result.ok && fixed.result.patch).toMatchObject({ taken: true });
    expect(fixed.same).toBe(true);
  }, 120_000);

  it('reports added files with problems over the state, as a clean build does', async () => {
    const model = read(eventFiles()[0]);
    const added = ['events/added-a.md', 'events/added-b.md', 'events/added-c.md'];
    // a page no page has, two files with one new id, a field that does not parse
    write(added[0], model.replace(/^id: .*$/m, 'id: 990001').replace(/^page: .*$/m, 'page: 987654'));
    write(added[1], model.replace(/^id: .*$/m, 'id: 990001'));
    write(added[2], model.replace(/^id: .*$/m, 'id: 990002').replace(/^start: .*$/m, 'start: not a time'));
    const { result, clean } = await buildBoth();
    expect(result.ok).toBe(false);
    expect(problemsOf(result)).toEqual(problemsOf(clean));
    expect(problemsOf(result).join('\n')).toMatch(/added-a\.md.*987654/);
    expect(problemsOf(result).filter((p) => p.includes('990001'))).toHaveLength(2);
    expect(problemsOf(result).join('\n')).toContain('added-c.md');
    expect(!result.ok && result.patch).toMatchObject({ taken: true });
    // an id an unchanged file has: the problem is told in both files
    for (const rel of added.slice(1)) removeFile(rel);
    write(added[0], model);
    const repeated = await buildBoth();
    expect(problemsOf(repeated.result)).toEqual(problemsOf(repeated.clean));
    expect(problemsOf(repeated.result).join('\n')).toContain(eventFiles()[0]);
    expect(!repeated.result.ok && repeated.result.patch).toMatchObject({ taken: true });
    removeFile(added[0]);
    const fixed = await buildBoth();
    expect(fixed.result.ok && fixed.result.patch).toMatchObject({ taken: true });
    expect(fixed.same).toBe(true);
  }, 120_000);

  it('reports the directory\'s problems over the state, with a changed event\'s, as a clean build does', async () => {
    const [first, second, third] = directoryFiles();
    const [before, other, last] = [read(first), read(second), read(third)];
    // a repeated id (told at both objects), a key no object has, a file that does not parse, and an event's id
    const object = /^- model:.*\n(?:  .*\n)*/.exec(before)![0];
    write(first, `${before}${object}${object.replace(/^  id: .*$/m, '  id: 770001\n  nonsense: 1')}`);
    write(second, `${other}- model: [unclosed\n`);
    writeFileSync(join(content, `${third}.new`), Buffer.concat([Buffer.from(last), Buffer.from([0xff])]));
    renameSync(join(content, `${third}.new`), join(content, third));
    const event = eventFiles()[3];
    const text = read(event);
    write(event, text.replace(/^id: .*$/m, 'id: [unclosed'));
    const { result, clean } = await buildBoth();
    expect(result.ok).toBe(false);
    expect(problemsOf(result)).toEqual(problemsOf(clean));
    expect(problemsOf(result).filter((p) => p.startsWith(first))).toHaveLength(3);
    expect(problemsOf(result).join('\n')).toContain(second);
    expect(problemsOf(result).join('\n')).toContain(`${third}:`);
    expect(problemsOf(result).join('\n')).toContain(event);
    expect(!result.ok && result.patch).toMatchObject({ taken: true });
    // the directory's problems alone
    write(event, text);
    const alone = await buildBoth();
    expect(problemsOf(alone.result)).toEqual(problemsOf(alone.clean));
    expect(problemsOf(alone.result).join('\n')).not.toContain(event);
    expect(!alone.result.ok && alone.result.patch).toMatchObject({ taken: true });
    write(first, before);
    write(second, other);
    write(third, last);
    const fixed = await buildBoth();
    expect(fixed.result.ok && fixed.result.patch).toMatchObject({ taken: true });
    expect(fixed.same).toBe(true);
  }, 120_000);

  it('parses none of many files only touched (their texts are the ones recorded)', async () => {
    const later = new Date(Date.now() + 1000);
    for (const rel of eventFiles().slice(0, 120)) utimesSync(join(content, rel), later, later);
    const result = await build({ content, out, cache, statMarginNs, poolFrom });
    expect(result.ok && result.patch).toMatchObject({ taken: true });
    expect(result.ok && result.cache!.parsed).toBe(0);
  }, 120_000);

  it('records each event file\'s stat and key at its new index where files before it were added or removed', async () => {
    const files = eventFiles();
    removeFile(files[3]);
    removeFile(files[40]);
    write('events/0000-first.md', read(files[5]).replace(/^id: .*$/m, 'id: 987654321'));
    const { result, same } = await buildBoth();
    expect(result.ok && result.patch).toMatchObject({ taken: true, removed: 2 });
    expect(same).toBe(true);
    const state = stateOf(openEventState(eventStatePath(distCacheFile(cache, content, out)), 1 << 30), content, out)!;
    const now = state.files.slice(0, state.eventCount);
    expect(now.filter((f) => f.endsWith('.md'))).toEqual(eventFiles());
    const wrong = now.filter((file, i) => {
      const want = new BigInt64Array(STAT_FIELDS);
      putStat(want, 0, fileStat(join(content, file)));
      const key = parseKey(`${EVENTS_KIND}${state.site.timezone}`, file, readFileSync(join(content, file)));
      return !want.every((v, k) => v === state.stats[i * STAT_FIELDS + k]) || !key.equals(state.keys.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES));
    });
    expect(wrong).toEqual([]);
  });
});
