// On a file system without hard links (FAT/exFAT, some network mounts and CI caches) a build with a
// cache copies the previous dist's proven files where it would link them (ledger/carry-over.ts):
// every build over the prior works, and its dist is a clean build's, byte for byte.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hardLinks } from '../src/pipeline/ledger/carry-over.ts';
import { listFiles } from '../src/util/same-files.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { aula } from './aula-cli.ts';
import { buildOk, removeDir, tempDir } from './helpers.ts';

const roots: string[] = [];
const links = { ...hardLinks };
afterEach(() => {
  Object.assign(hardLinks, links);
  roots.splice(0).forEach(removeDir);
});

/** Every link the build makes refused with EPERM, as FAT refuses them; the links tried, by their target. */
function noHardLinks(): string[] {
  const tried: string[] = [];
  const refuse = (from: unknown, to: unknown) => {
    tried.push(String(to));
    return Object.assign(new Error(`EPERM: operation not permitted, link '${String(from)}'`), { code: 'EPERM' });
  };
  hardLinks.linkSync = (from, to) => {
    throw refuse(from, to);
  };
  return tried;
}

/** The same files with the same bytes (changes.json says what changed since the previous build, so differs). */
function expectSameDist(got: string, want: string): void {
  const files = (dist: string) => listFiles(dist).filter((rel) => rel !== 'changes.json').sort();
  expect(files(got)).toEqual(files(want));
  expect(files(got).filter((rel) => !readFileSync(join(got, rel)).equals(readFileSync(join(want, rel))))).toEqual([]);
}

/** rel → [inode, mtime in ms, bytes] of every file of a dist but the out folder's own list (linked by the swap, not the ledger). */
function stamps(dist: string): Map<string, [number, number, string]> {
  return new Map(listFiles(dist).filter((rel) => rel !== '.aula-files').map((rel) => {
    const s = statSync(join(dist, rel));
    return [rel, [s.ino, s.mtimeMs, readFileSync(join(dist, rel)).toString('base64')]];
  }));
}

describe('a file system without hard links', () => {
  it('builds over the prior by copies: a title edit and an added event give a clean build’s dist, unchanged files their mtime', async () => {
    const root = tempDir('aula-nolink-');
    roots.push(root);
    const content = join(root, 'content');
    await generateContent({ events: 300, directory: 40, seed: 3, outDir: content });
    const [out, cache] = [join(root, 'dist'), join(root, 'cache')];
    const tried = noHardLinks();
    const edits = [
      () => {},
      () => {
        const file = join(content, listFiles(content).find((f) => f.startsWith('events/') && f.endsWith('.yaml'))!);
        const text = readFileSync(file, 'utf8');
        const edited = text.replace(/^(- id: \d+\n {2}title: )(.*)$/m, '$1Verlegte Veranstaltung');
        expect(edited).not.toBe(text);
        writeFileSync(file, edited);
      },
      () => writeFileSync(join(content, 'events', 'added-1.md'), '---\nid: 900001\ntitle: Neue Veranstaltung\nstart: 2025-06-03T10:00:00\nend: 2025-06-03 12:00:00\nlast_modified: 2025-05-03T08:00:00\ncategories:\n  - 1\n---\nText.\n'),
    ];
    for (const [step, edit] of edits.entries()) {
      edit();
      const before = step === 0 ? new Map() : stamps(out);
      tried.length = 0;
      const built = await buildOk({ content, out, cache, statMarginNs: 0n });
      const clean = join(root, `clean-${step}`);
      await buildOk({ content, out: clean });
      expectSameDist(out, clean);
      if (step === 0) continue;
      expect(built.patch, `step ${step}`).toMatchObject({ taken: true });
      const after = stamps(out);
      const kept = [...after].filter(([rel, [, , bytes]]) => before.get(rel)?.[2] === bytes);
      expect(kept.length, `step ${step}`).toBeGreaterThan(after.size / 3);
      for (const [rel, [ino, mtime]] of kept) {
        // a copy (never the previous file's inode), with the previous file's mtime (to the ms, as utimes sets it), as a link would keep
        expect(ino, rel).not.toBe(before.get(rel)![0]);
        expect(Math.abs(mtime - before.get(rel)![1]), rel).toBeLessThan(2);
      }
      // refused once, no other link is tried in the build: the carry-over goes by the ledger's decision
      expect(tried, `step ${step}`).toHaveLength(1);
    }
  });

  it('`aula build --cache` works twice under a preload that refuses every link (EPERM)', () => {
    const root = tempDir('aula-nolink-cli-');
    roots.push(root);
    const content = join(import.meta.dirname, '..', 'content');
    const preload = ['--require', join(import.meta.dirname, 'no-hard-links.cjs')];
    const [out, cache, clean] = [join(root, 'dist'), join(root, 'cache'), join(root, 'clean')];
    for (let build = 0; build < 2; build++) {
      const run = aula(['build', '--content', content, '--out', out, '--cache', cache, '--quiet'], { node: preload });
      expect([run.code, run.err], `build ${build}`).toEqual([0, '']);
    }
    const run = aula(['build', '--content', content, '--out', clean, '--no-cache', '--quiet']);
    expect(run.code).toBe(0);
    expectSameDist(out, clean);
  });
});
