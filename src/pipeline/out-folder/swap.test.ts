import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.ts';
import { describeFailure } from '../../util/failure.ts';
import { madeFilesText } from '../../store/format/made-files.ts';
import { createStaging, recoverDist, swapIn } from './swap.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) {
    // a tree deeper than PATH_MAX (below) defeats rmSync: coreutils' rm walks it by handles
    if (spawnSync('rm', ['-rf', root]).status !== 0) rmSync(root, { recursive: true, force: true });
  }
});

const manifest = (version: string) => JSON.stringify({ format: 1, version, built_at: 'x', base_url: 'x', site: {}, counts: {}, event_list: {} });

/** A former dist in `out` (many files, and `more` it made) and a staged new one beside it. */
function dists(files = 3, more: (out: string) => string[] = () => []) {
  const root = tempDir('aula-swap-');
  roots.push(root);
  const out = join(root, 'dist');
  mkdirSync(join(out, 'pages'), { recursive: true });
  writeFileSync(join(out, 'manifest.json'), manifest('old'));
  const made = ['manifest.json', '.aula-files', ...more(out)];
  for (let i = 0; i < files; i++) {
    writeFileSync(join(out, 'pages', `${i}.json`), 'old');
    made.push(`pages/${i}.json`);
  }
  writeFileSync(join(out, '.aula-files'), madeFilesText(made));
  const staging = createStaging(out);
  mkdirSync(join(staging, 'pages'));
  writeFileSync(join(staging, 'manifest.json'), manifest('new'));
  writeFileSync(join(staging, 'pages', '0.json'), 'new');
  return { root, out, staging };
}

const parkedIn = (root: string) => readdirSync(root).filter((e) => /^\.aula-old-dist-[0-9]+-[0-9]+$/.test(e));

describe('swapIn', () => {
  it('puts the new dist in place, then removes the former one (its freed files kept as spares), and nothing else', async () => {
    const { root, out, staging } = dists(200);
    // a user's folder with a look-alike name beside, and one outside the dist a link in it points to
    mkdirSync(join(root, '.aula-old-dist-notes'));
    writeFileSync(join(root, '.aula-old-dist-notes', 'a.txt'), 'mine');
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere', 'keep.txt'), 'mine');
    // (a link aula did not make, in a folder the new dist has too: the user's, moved into it)
    symlinkSync(join(root, 'elsewhere'), join(out, 'pages', 'linked'));

    await swapIn(staging, out);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(manifest('new'));
    expect(readdirSync(out).sort()).toEqual(['.aula-files', 'manifest.json', 'pages']);
    expect(readdirSync(join(out, 'pages')).sort()).toEqual(['0.json', 'linked']);
    expect(readdirSync(root).sort()).toEqual(['.aula-old-dist-notes', '.aula-spare-dist', 'dist', 'elsewhere']);
    expect(readdirSync(join(root, '.aula-spare-dist')).filter((n) => !n.startsWith('.'))).toHaveLength(200);
    expect(readFileSync(join(root, '.aula-old-dist-notes', 'a.txt'), 'utf8')).toBe('mine');
    // the link was moved, not followed
    expect(readFileSync(join(root, 'elsewhere', 'keep.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(out, 'pages', '0.json'), 'utf8')).toBe('new');
  });

  it('runs `meanwhile` once, the new dist in place: with a former dist to remove, and with none', async () => {
    const { root, out, staging } = dists(20);
    const calls: boolean[] = [];
    await swapIn(staging, out, undefined, undefined, undefined, { shared: () => false, meanwhile: () => calls.push(readFileSync(join(out, 'manifest.json'), 'utf8') === manifest('new')) });
    expect(calls).toEqual([true]);
    expect(parkedIn(root)).toEqual([]);
    const fresh = join(root, 'fresh');
    const first = createStaging(fresh);
    writeFileSync(join(first, 'manifest.json'), manifest('new'));
    await swapIn(first, fresh, undefined, undefined, undefined, { shared: () => false, meanwhile: () => calls.push(existsSync(join(fresh, 'manifest.json'))) });
    expect(calls).toEqual([true, true]);
  });

  it('a removal that fails midway leaves the new dist whole and names the path in one line', async () => {
    // a file the former dist lists whose path is just short enough from the dist's own name, and
    // too long (past PATH_MAX) from the longer name it is parked under for its removal
    const { root, out, staging } = dists(3, (dist) => {
      let rel = 'pages';
      while (join(dist, rel).length < 4_070 - 200) rel += `/${'d'.repeat(199)}`;
      rel += `/${'d'.repeat(4_070 - join(dist, rel).length - 1)}`;
      mkdirSync(join(dist, rel), { recursive: true });
      writeFileSync(join(dist, rel, 'file'), 'x');
      return [`${rel}/file`];
    });

    let failure: NodeJS.ErrnoException | null = null;
    try {
      await swapIn(staging, out);
    } catch (e) {
      failure = e as NodeJS.ErrnoException;
    }
    expect(failure).not.toBeNull();
    expect(failure!.code).toBe('ENAMETOOLONG');
    const line = describeFailure(failure);
    expect(line).not.toContain('\n');
    expect(line).toContain('.aula-old-dist-');
    expect(line).toContain('[ENAMETOOLONG]');
    // the new dist is in place and whole; what is left of the former one is under its parked name
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(manifest('new'));
    expect(readdirSync(out).sort()).toEqual(['.aula-files', 'manifest.json', 'pages']);
    expect(readFileSync(join(out, 'pages', '0.json'), 'utf8')).toBe('new');
    expect(parkedIn(root)).toHaveLength(1);
  });
});

/**
 * The dist a build swapped in, and its former one parked beside it by a process now gone, as a
 * stopped build leaves them: `files` (path → text) are the parked dist's, its proof included.
 */
function swappedWithParked(files: Record<string, string>) {
  const { root, out, staging } = dists();
  const dead = spawnSync('true').pid!;
  const parked = join(root, `.aula-old-dist-${dead}-1`);
  for (const [rel, text] of Object.entries({ 'manifest.json': manifest('old'), ...files })) {
    mkdirSync(dirname(join(parked, rel)), { recursive: true });
    writeFileSync(join(parked, rel), text);
  }
  renameSync(staging, out + '-new');
  rmSync(out, { recursive: true });
  renameSync(out + '-new', out);
  return { out, parked };
}

describe('recoverDist, for a former dist that was not wholly removed', () => {
  it('moves what is not aula\'s into the dist and removes the rest: a file written during a swap, a removal stopped midway', async () => {
    // a removal stopped midway leaves it with listed files partly gone, the proof still there,
    // and files written into it late, one in a folder the new dist does not have
    const { out, parked } = swappedWithParked({
      '.aula-files': madeFilesText(['manifest.json', '.aula-files', 'pages/0.json', 'pages/1.json', 'gone/0.json']),
      'pages/1.json': 'old',
      'pages/late.txt': 'mine',
      'gone/deeper/late.txt': 'mine too',
    });
    await recoverDist(out);
    expect(readFileSync(join(out, 'pages', 'late.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(out, 'gone', 'deeper', 'late.txt'), 'utf8')).toBe('mine too');
    expect(existsSync(parked)).toBe(false);
  });

  it('leaves a parked dist without a list where it is, and says so: nothing of it can be told from the user\u2019s', async () => {
    const { out, parked } = swappedWithParked({ 'pages/0.json': 'old', 'pages/mine.json': 'theirs', CNAME: 'example.org' });
    const warnings: string[] = [];
    await recoverDist(out, (w) => warnings.push(w));
    expect(warnings).toEqual([`${parked} is a former dist without a readable .aula-files: aula cannot tell the files it made there from yours, so it leaves the folder; move your files out of it and remove it`]);
    expect(readFileSync(join(parked, 'pages', 'mine.json'), 'utf8')).toBe('theirs');
    expect(readFileSync(join(parked, 'CNAME'), 'utf8')).toBe('example.org');
  });
});
