// Issue 16, item 2: a rebuild leaves unchanged output files alone (same inode, same mtime), lists
// a content hash per served file in the manifest, and says in dist/changes.json what changed.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listFiles } from '../src/util/same-files.ts';
import { digestOf } from '../src/store/format/manifest.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { buildOk, removeDir, tempDir } from './helpers.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

async function setup() {
  const root = tempDir('aula-unchanged-');
  roots.push(root);
  const content = join(root, 'content');
  await generateContent({ events: 60, directory: 40, seed: 3, outDir: content });
  return { content, dist: join(root, 'dist') };
}

/** path → [inode, mtime in ms] of every file of a dist */
function stamps(dist: string): Map<string, [number, number]> {
  return new Map(listFiles(dist).map((rel) => {
    const s = statSync(join(dist, rel));
    return [rel, [s.ino, s.mtimeMs]];
  }));
}

const changes = (dist: string) => JSON.parse(readFileSync(join(dist, 'changes.json'), 'utf8'));

/** The first event file and an edit of one event's title in it. */
function oneEventEdit(content: string): { file: string; edited: string } {
  const file = join(content, listFiles(content).find((f) => f.startsWith('events/') && f.endsWith('.yaml'))!);
  const text = readFileSync(file, 'utf8');
  const edited = text.replace(/^(- id: \d+\n  title: )(.*)$/m, '$1Verlegte Veranstaltung');
  expect(edited).not.toBe(text);
  return { file, edited };
}

describe('unchanged output is not rewritten', () => {
  it('an identical rebuild keeps every file (inode and mtime) and lists no changes', async () => {
    const { content, dist } = await setup();
    await buildOk({ content, out: dist });
    const first = changes(dist);
    expect(first.since_previous).toBe(false);
    expect(first.changed).toEqual([]);
    expect(first.removed).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
    expect(first.added).toEqual(Object.keys(manifest.public_files));
    expect(first.added).toContain('v1/cms/event/index.json');
    expect(first.added).toContain('events.ics');
    for (const [rel, hash] of Object.entries(manifest.public_files)) expect(digestOf(readFileSync(join(dist, rel))).sha256, rel).toBe(hash);

    // old mtimes, so that a rewrite could not keep them by accident within the clock's resolution
    for (const rel of listFiles(dist)) utimesSync(join(dist, rel), 1_000_000, 1_000_000);
    const before = stamps(dist);
    await buildOk({ content, out: dist });
    expect(changes(dist)).toEqual({ since_previous: true, changed: [], added: [], removed: [] });
    const after = stamps(dist);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    // changes.json itself says something new (no longer "all added"); every other file is kept
    for (const [rel, stamp] of after) if (rel !== 'changes.json') expect(stamp, rel).toEqual(before.get(rel));
    await buildOk({ content, out: dist });
    expect(stamps(dist)).toEqual(after);
  });

  it('a one-event change rewrites only the files it affects and lists those', async () => {
    const { content, dist } = await setup();
    await buildOk({ content, out: dist });
    for (const rel of listFiles(dist)) utimesSync(join(dist, rel), 1_000_000, 1_000_000);
    const before = stamps(dist);
    const previous = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')).public_files;
    const { file, edited } = oneEventEdit(content);
    writeFileSync(file, edited);
    await buildOk({ content, out: dist });
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
    const listed = changes(dist);
    const differing = Object.keys(manifest.public_files).filter((rel) => previous[rel] !== manifest.public_files[rel]);
    expect(listed.changed).toEqual(differing.sort());
    expect(listed.added).toEqual([]);
    expect(listed.removed).toEqual([]);
    // one page of the event list and the feed, not every page
    expect(listed.changed).toContain('events.ics');
    expect(listed.changed.filter((rel: string) => rel.startsWith('v1/cms/event/')).length).toBe(1);
    const after = stamps(dist);
    const rewritten = [...after].filter(([rel, stamp]) => before.get(rel)?.[1] !== stamp[1]).map(([rel]) => rel);
    // the changed public files with their .gz/.br, and the data files and manifest that hold the event
    for (const rel of listed.changed) expect(rewritten).toContain(rel);
    for (const rel of rewritten) {
      const base = rel.replace(/\.(?:gz|br)$/, '');
      // the static-host rules carry the build id (X-Aula-Build), which any content change changes
      const hostRules = base.startsWith('deploy/') || ['_headers', '_redirects', 'vercel.json'].includes(base);
      const expected = listed.changed.includes(base) || base.startsWith('data/') || base.startsWith('autocomplete/') || hostRules || ['manifest.json', 'changes.json'].includes(base);
      expect(expected, rel).toBe(true);
    }
    expect(rewritten.length).toBeLessThan(after.size / 4);
  });
});

describe('precompressed twins of unchanged pages', () => {
  it('are linked from the previous build only while the ledger proves them, else made again', async () => {
    const { content, dist } = await setup();
    const cache = join(dist, '..', 'cache');
    await buildOk({ content, out: dist, cache });
    const page = 'v1/cms/event/index.json';
    const good = readFileSync(join(dist, `${page}.gz`));
    const { gzipSync } = await import('node:zlib');
    // a hand-edited twin: valid gzip, other bytes
    writeFileSync(join(dist, `${page}.gz`), gzipSync('{"edited": true}'));
    const kept = statSync(join(dist, `${page}.br`)).ino;
    await buildOk({ content, out: dist, cache });
    expect(readFileSync(join(dist, `${page}.gz`)).equals(good)).toBe(true);
    // (its .br made again with it, then carried over as unchanged bytes)
    expect(statSync(join(dist, `${page}.br`)).ino).toBe(kept);
    const linked = statSync(join(dist, `${page}.gz`)).ino;
    const { reuse } = await buildOk({ content, out: dist, cache });
    expect(statSync(join(dist, `${page}.gz`)).ino).toBe(linked);
    expect(reuse!.pages).toBeGreaterThan(0);
  });
});
