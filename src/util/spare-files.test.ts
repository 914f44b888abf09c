import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { keepSpares, LARGEST_SPARE, REST_MS, SPARE_RECORD, spareFolderOf, SpareFiles, writeOver } from './spare-files.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) removeDir(dir);
});

/** A parent folder with a former dist (`old`) of the files given, and where its out folder is. */
function site(files: Record<string, string>) {
  const root = tempDir('aula-spares-');
  made.push(root);
  const old = join(root, 'old');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(old, rel, '..'), { recursive: true });
    writeFileSync(join(old, rel), text);
  }
  return { root, old, out: join(root, 'dist'), folder: spareFolderOf(join(root, 'dist')) };
}
const all = () => true;
const later = (ms = 0) => Date.now() + REST_MS + ms;
const spareNames = (folder: string) => readdirSync(folder).filter((n) => !n.startsWith('.')).sort();

describe('keepSpares', () => {
  it('moves the keepable files into the spare folder and records them; unlinks the others; git ignores the folder', async () => {
    const s = site({ 'a.json': 'a'.repeat(100), 'b.json': 'b'.repeat(5000), 'data/c.bin': 'c' });
    const ids = ['a.json', 'b.json'].map((rel) => lstatSync(join(s.old, rel)).ino);
    await keepSpares(s.out, ['a.json', 'b.json', 'data/c.bin'].map((rel) => join(s.old, rel)), 4, (path) => !path.includes('/data/'));
    expect(readdirSync(s.old, { recursive: true }).filter((n) => !String(n).endsWith('data'))).toEqual([]);
    expect(spareNames(s.folder).map((n) => lstatSync(join(s.folder, n)).ino).sort()).toEqual(ids.sort());
    expect(readFileSync(join(s.folder, SPARE_RECORD), 'utf8').split('\n')).toHaveLength(3);
    expect(readFileSync(join(s.folder, '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('keeps no file with another link (a copy made with cp -al): unlinked, the copy untouched', async () => {
    const s = site({ 'a.json': 'theirs' });
    linkSync(join(s.old, 'a.json'), join(s.root, 'copy.json'));
    await keepSpares(s.out, [join(s.old, 'a.json')], 4, all);
    expect(existsSync(join(s.old, 'a.json'))).toBe(false);
    expect(existsSync(s.folder) ? spareNames(s.folder) : []).toEqual([]);
    expect(readFileSync(join(s.root, 'copy.json'), 'utf8')).toBe('theirs');
  });

  it('keeps no file over LARGEST_SPARE', async () => {
    const s = site({ 'big.json': 'x'.repeat(LARGEST_SPARE + 1) });
    await keepSpares(s.out, [join(s.old, 'big.json')], 4, all);
    expect(existsSync(join(s.old, 'big.json'))).toBe(false);
    expect(existsSync(s.folder)).toBe(false);
  });

  it('within its caps: the newest stay, the oldest go, and a file somebody changed or put there stays untouched', async () => {
    const s = site({ '1': 'one', '2': 'two', '3': 'three' });
    await keepSpares(s.out, [join(s.old, '1')], 4, all, { files: 2, bytes: 1 << 20 }, 1000);
    await keepSpares(s.out, [join(s.old, '2')], 4, all, { files: 2, bytes: 1 << 20 }, 2000);
    const [first, second] = spareNames(s.folder);
    writeFileSync(join(s.folder, 'theirs'), 'x');
    await keepSpares(s.out, [join(s.old, '3')], 4, all, { files: 2, bytes: 1 << 20 }, 3000);
    expect(spareNames(s.folder)).not.toContain(first);
    expect(spareNames(s.folder)).toEqual(expect.arrayContaining([second, 'theirs']));
    expect(spareNames(s.folder)).toHaveLength(3);
    // a changed spare is neither taken nor removed
    const s2 = site({ '1': 'one', '2': 'two' });
    await keepSpares(s2.out, [join(s2.old, '1')], 4, all, { files: 1, bytes: 1 << 20 }, 1000);
    const [kept] = spareNames(s2.folder);
    chmodSync(join(s2.folder, kept), 0o600);
    writeOver(join(s2.root, 'new.json'), 'new', new SpareFiles(s2.folder, later(3000)).pick(3));
    expect(readFileSync(join(s2.folder, kept), 'utf8')).toBe('one');
    await keepSpares(s2.out, [join(s2.old, '2')], 4, all, { files: 1, bytes: 1 << 20 }, 2000);
    expect(spareNames(s2.folder)).toContain(kept);
  });
});

describe('the spare folder is aula\'s', () => {
  it('puts nothing into a folder of that name that holds somebody\'s files: theirs untouched, the freed files unlinked', async () => {
    const s = site({ 'a.json': 'a' });
    mkdirSync(s.folder);
    writeFileSync(join(s.folder, 'notes.txt'), 'theirs');
    await keepSpares(s.out, [join(s.old, 'a.json')], 4, all);
    expect(existsSync(join(s.old, 'a.json'))).toBe(false);
    expect(readdirSync(s.folder)).toEqual(['notes.txt']);
    expect(readFileSync(join(s.folder, 'notes.txt'), 'utf8')).toBe('theirs');
  });

  it('follows no link put in its folder: a dangling .gitignore link is left, nothing written through it, no spare kept', async () => {
    const s = site({ 'a.json': 'a', 'b.json': 'b' });
    await keepSpares(s.out, [join(s.old, 'a.json')], 4, all);
    rmSync(join(s.folder, '.gitignore'));
    symlinkSync(join(s.root, 'target'), join(s.folder, '.gitignore'));
    await keepSpares(s.out, [join(s.old, 'b.json')], 4, all);
    expect(existsSync(join(s.root, 'target'))).toBe(false);
    expect(lstatSync(join(s.folder, '.gitignore')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(s.old, 'b.json'))).toBe(false);
    expect(spareNames(s.folder)).toHaveLength(1);
  });

  it('takes back the folder a stopped build made before its first record (only its .gitignore)', async () => {
    const s = site({ 'a.json': 'a' });
    mkdirSync(s.folder);
    writeFileSync(join(s.folder, '.gitignore'), '*\n');
    await keepSpares(s.out, [join(s.old, 'a.json')], 4, all);
    expect(spareNames(s.folder)).toHaveLength(1);
  });
});

describe('SpareFiles and writeOver', () => {
  async function spares(sizes: number[]) {
    const files = Object.fromEntries(sizes.map((n, i) => [`f${i}`, 's'.repeat(n)]));
    const s = site(files);
    await keepSpares(s.out, Object.keys(files).map((rel) => join(s.old, rel)), 4, all);
    mkdirSync(join(s.root, 'staging'));
    return s;
  }

  it('writes into a rested spare in place: the same file, exactly the new bytes, shorter or longer', async () => {
    const s = await spares([6000, 6000]);
    const ids = new Set(spareNames(s.folder).map((n) => lstatSync(join(s.folder, n)).ino));
    const taken = new SpareFiles(s.folder, later());
    for (const [name, bytes] of [['short', 'n'.repeat(4500)], ['long', Buffer.from('m'.repeat(7000))]] as const) {
      const path = join(s.root, 'staging', name);
      writeOver(path, bytes, taken.pick(bytes.length));
      expect(readFileSync(path).equals(Buffer.from(bytes))).toBe(true);
      expect(ids.has(lstatSync(path).ino)).toBe(true);
    }
    expect(spareNames(s.folder)).toEqual([]);
  });

  it('takes no spare that has not rested, nor one with more blocks than the file needs; prefers as many blocks', async () => {
    const s = await spares([100, 9000, 20_000]);
    expect(new SpareFiles(s.folder).pick(100)).toBeUndefined();
    const taken = new SpareFiles(s.folder, later());
    // 9,000 bytes (3 blocks) for a file of 10,000; then the 100-byte one is the largest left below 5,000
    expect(lstatSync(taken.pick(10_000)!.path).size).toBe(9000);
    expect(lstatSync(taken.pick(5000)!.path).size).toBe(100);
    expect(taken.pick(50)).toBeUndefined();
  });

  it('never writes a spare somebody linked meanwhile: a new file is written, their copy keeps its bytes', async () => {
    const s = await spares([3000]);
    const spare = new SpareFiles(s.folder, later()).pick(3000)!;
    linkSync(spare.path, join(s.root, 'copy'));
    const path = join(s.root, 'staging', 'page.json');
    writeOver(path, 'new bytes', spare);
    expect(readFileSync(path, 'utf8')).toBe('new bytes');
    expect(readFileSync(join(s.root, 'copy'), 'utf8')).toBe('s'.repeat(3000));
  });

  it('names no spare the record does not list, or that is gone', async () => {
    const s = await spares([3000]);
    writeFileSync(join(s.folder, 'theirs'), 's'.repeat(3000));
    const taken = new SpareFiles(s.folder, later());
    const spare = taken.pick(3000)!;
    expect(spare.path).not.toBe(join(s.folder, 'theirs'));
    expect(taken.pick(3000)).toBeUndefined();
    writeOver(join(s.root, 'staging', 'a'), 'a', spare);
    expect(new SpareFiles(s.folder, later()).pick(3000)).toBeUndefined();
  });
});
