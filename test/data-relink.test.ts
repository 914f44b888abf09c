// A data file a build over the prior makes anew (pipeline/write/staged-dist.ts): where its bytes
// are the previous build's after all, the previous file is linked in its place, so unchanged output
// keeps its inode; where they are not, it is the new file. Either way the dist is a clean build's,
// byte for byte. The calendar's parts (one per event part) show both.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listFiles } from '../src/util/same-files.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { buildOk, removeDir, tempDir } from './helpers.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

const calendarParts = (dist: string) => listFiles(dist).filter((rel) => rel.startsWith('data/calendar/')).sort();

/** Each calendar part's inode, by its name. */
const inodes = (dist: string) => new Map(calendarParts(dist).map((rel) => [rel, statSync(join(dist, rel)).ino]));

/** A Markdown event file with a line `key: <value>` other than null, and that file with the value replaced. */
function editLine(content: string, key: string, value: string): { file: string; edited: string } {
  const pattern = new RegExp(`^${key}: (?!null$).*$`, 'm');
  for (const rel of listFiles(content).filter((f) => f.startsWith('events/') && f.endsWith('.md')).sort()) {
    const file = join(content, rel);
    const text = readFileSync(file, 'utf8');
    if (pattern.test(text)) return { file, edited: text.replace(pattern, `${key}: ${value}`) };
  }
  throw new Error(`no event file with ${key}`);
}

function expectSameDist(got: string, want: string): void {
  const files = (dist: string) => listFiles(dist).filter((rel) => rel !== 'changes.json').sort();
  expect(files(got)).toEqual(files(want));
  const differing = files(got).filter((rel) => !readFileSync(join(got, rel)).equals(readFileSync(join(want, rel))));
  expect(differing).toEqual([]);
}

describe('data files over the prior', () => {
  it('are linked where their bytes did not change, written where they did, and make a clean build’s dist', async () => {
    const root = tempDir('aula-relink-');
    roots.push(root);
    const content = join(root, 'content');
    await generateContent({ events: 2400, directory: 20, seed: 5, outDir: content });
    const [out, cache] = [join(root, 'dist'), join(root, 'cache')];
    const build = () => buildOk({ content, out, cache, statMarginNs: 0n, precompress: false });
    await build();
    // (several parts: one made again among others kept)
    expect(calendarParts(out).length).toBeGreaterThan(1);

    // a field the calendar does not hold: the part of its row made again, with the same bytes, is the previous one
    const fees = editLine(content, 'attending_fees_info', JSON.stringify('Eintritt frei'));
    const before = inodes(out);
    writeFileSync(fees.file, fees.edited);
    const first = await build();
    expect(first.patch).toMatchObject({ taken: true });
    expect(inodes(out)).toEqual(before);
    const clean = join(root, 'clean');
    await buildOk({ content, out: clean, precompress: false });
    expectSameDist(out, clean);

    const title = editLine(content, 'title', JSON.stringify('Ein neuer Titel'));
    writeFileSync(title.file, title.edited);
    const second = await build();
    expect(second.patch).toMatchObject({ taken: true });
    // a title is in the calendar: the new part of its row, the others as they were
    const after = inodes(out);
    expect([...before.keys()].filter((rel) => after.get(rel) !== before.get(rel))).toHaveLength(1);
    removeDir(clean);
    await buildOk({ content, out: clean, precompress: false });
    expectSameDist(out, clean);
  });
});
