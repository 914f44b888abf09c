import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { putStat, STAT_FIELDS } from './file-stats.ts';
import { beginStats } from './stat-many.ts';

const statFiles = (paths: readonly string[], twoThreadsFrom?: number, size?: number) => beginStats(paths, twoThreadsFrom, size).finish();

// the thread module on a real worker thread, as an installed aula runs it (start-thread.ts)
process.env.AULA_THREADS = 'worker';

const root = tempDir('aula-stat-many-');
afterAll(() => removeDir(root));

describe('statFiles', () => {
  const paths: string[] = [];
  for (let i = 0; i < 300; i++) {
    const path = join(root, `f${i}.md`);
    writeFileSync(path, 'x'.repeat(i));
    paths.push(path);
  }
  mkdirSync(join(root, 'folder'));
  // no file there, a folder, a path through a file: no stat to take
  const odd = [join(root, 'gone.md'), join(root, 'folder'), join(root, 'f1.md', 'below')];

  /** The numbers putStat writes for each path's own stat (all -1 where none). */
  function expected(list: readonly string[]): BigInt64Array {
    const out = new BigInt64Array(list.length * STAT_FIELDS);
    list.forEach((path, i) => {
      let s;
      try {
        s = statSync(path, { bigint: true, throwIfNoEntry: false });
      } catch {
        s = undefined; // ENOTDIR
      }
      putStat(out, i, s?.isFile() ? s : null);
    });
    return out;
  }

  it("gives each file's stat in putStat's order, on this thread and on two", async () => {
    const all = [...paths, ...odd, ...paths.slice(0, 5)];
    const want = expected(all);
    expect(await statFiles(all)).toEqual(want);
    // on two threads, in shares of one file: whichever thread takes each, each is where it belongs
    expect(await statFiles(all, 1, 1)).toEqual(want);
    expect(await statFiles(all, 1, 7)).toEqual(want);
    expect(await statFiles(odd, 1, 1)).toEqual(new BigInt64Array(odd.length * STAT_FIELDS).fill(-1n));
    // enough files (~60 ms of stats) for the worker to have started and taken shares of them
    const many = Array.from({ length: 70 }, () => all).flat();
    const wantMany = new BigInt64Array(many.length * STAT_FIELDS);
    for (let k = 0; k < 70; k++) wantMany.set(want, k * want.length);
    expect(await statFiles(many, 1, 64)).toEqual(wantMany);
    expect(await statFiles([])).toEqual(new BigInt64Array(0));
    // begun, the worker taking shares while this thread does other work, then finished here
    const begun = beginStats(many, 1, 64);
    expected(many);
    expect(await begun.finish()).toEqual(wantMany);
    // abandoned at once (before the worker can have begun): finish resolves once the worker has
    // ended, every share either taken whole or left untaken (zeros), and not all taken
    const abandoned = beginStats(many, 1, 64);
    abandoned.abandon();
    const got = await abandoned.finish();
    const share = 64 * STAT_FIELDS;
    let untaken = 0;
    for (let at = 0; at < got.length; at += share) {
      const part = got.subarray(at, at + share);
      if (part.every((v) => v === 0n)) untaken++;
      else expect(part).toEqual(wantMany.subarray(at, at + share));
    }
    expect(untaken).toBeGreaterThan(0);
  });

  it('stats names after their folder, on two threads: names with a line break, a backslash, spaces, % and # or composed characters are each their own file', async () => {
    const names = ['new\nline.md', 'back\\slash.md', ' lead space.md', 'pct%20#hash?.md', '-dash.md', 'e\u0301.md', 'tab\there.md', 'x'.repeat(200) + '.md', 'f1.md', 'gone.md'];
    mkdirSync(join(root, 'odd'));
    names.slice(0, -2).forEach((name, i) => writeFileSync(join(root, 'odd', name), 'y'.repeat(i + 1)));
    const many = Array.from({ length: 40 }, () => names).flat();
    const want = expected(many.map((name) => join(root, 'odd', name)));
    for (const [from, size] of [[1, 1], [1, 3], [Infinity, 256]]) expect(await beginStats(many, from, size, `${join(root, 'odd')}${sep}`).finish()).toEqual(want);
  });
});
