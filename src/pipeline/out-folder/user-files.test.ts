import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { MADE_FILES, madeFilesText, parseMadeFiles } from '../../store/format/made-files.ts';
import * as fs from 'node:fs';
import { removeMade, userEntries } from './user-files.ts';

const root = tempDir('aula-user-files-');
afterAll(() => removeDir(root));
let n = 0;

/** A folder holding `files` (path → text; a path ending in / is an empty folder). */
function tree(files: Record<string, string>): string {
  const dir = join(root, `t${n++}`);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith('/')) mkdirSync(join(dir, path), { recursive: true });
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }
  return dir;
}

const MADE = ['manifest.json', 'v1/cms/event/index.json', 'data/events/00000.jsonl', MADE_FILES];
const listed = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(MADE.map((f) => [f, f === MADE_FILES ? madeFilesText(MADE) : 'aula'])),
  ...extra,
});

describe('.aula-files', () => {
  it('reads back what it wrote, sorted, and refuses anything else', () => {
    expect(parseMadeFiles(madeFilesText(['b', 'a\nb', 'a']))).toEqual(['a', 'a\nb', 'b']);
    for (const bad of ['', '[]', '{"aula_files":2,"files":[]}', '{"aula_files":1,"files":[1]}', '{"aula_files":1}']) expect(parseMadeFiles(bad)).toBeNull();
  });
});

describe('userEntries: what of a former dist aula did not make', () => {
  it('finds the files and folders .aula-files does not list, a folder of the user whole', () => {
    const old = tree(listed({ CNAME: 'site.example', '.git/HEAD': 'ref', '.git/objects/': '', 'assets/site.css': 'a{}', 'v1/cms/mine.txt': 'm', 'data/events/': '' }));
    const staged = tree(listed({ 'v1/cms/event/offset/20.json': '{}' }));
    expect(userEntries(old, staged, 'dist').entries.sort()).toEqual(['.git', 'CNAME', 'assets', 'v1/cms/mine.txt']);
  });

  it('a folder of the user where the new tree has one too: its files are placed one by one', () => {
    const old = tree(listed({ 'notes/a.txt': 'a', 'notes/deep/b.txt': 'b' }));
    const staged = tree(listed({ 'notes/made.txt': 'x' }));
    expect(userEntries(old, staged, 'dist').entries.sort()).toEqual(['notes/a.txt', 'notes/deep']);
  });

  it('refuses, naming it, a user file where the new build makes a file or needs a folder', () => {
    const old = tree(listed({ 'v1/cms/event/offset/20.json': 'mine' }));
    expect(() => userEntries(old, tree(listed({ 'v1/cms/event/offset/20.json': '{}' })), 'dist')).toThrow(
      /^--out dist: v1\/cms\/event\/offset\/20\.json in it was not made by aula, and this build makes a file or folder in its place; move it out/,
    );
    const beneath = tree(listed({ 'schemas/x/own.json': 'mine' }));
    expect(() => userEntries(beneath, tree(listed({ 'schemas/x': 'a file' })), 'dist')).toThrow(/: schemas\/x in it was not made by aula/);
    // a user's folder where the new build makes a file
    const folder = tree(listed({ 'events.ics/own.txt': 'mine' }));
    expect(() => userEntries(folder, tree(listed({ 'events.ics': 'BEGIN:VCALENDAR' })), 'dist')).toThrow(/events\.ics in it was not made by aula/);
  });

  it('a dist without .aula-files, or with a damaged one, is refused whole: nothing of it can be told from the user\u2019s', () => {
    for (const old of [
      tree({ 'manifest.json': '{}', 'v1/extra/mine.json': 'theirs, nested in aula\u2019s folder', CNAME: 'c' }),
      tree({ ...listed({ CNAME: 'c' }), [MADE_FILES]: '{"aula_files":1,"files":[' }),
    ]) {
      expect(() => userEntries(old, tree(listed()), 'dist')).toThrow(/^--out dist is a dist without a readable \.aula-files .* replaces nothing/);
      expect(readFileSync(join(old, 'CNAME'), 'utf8')).toBe('c');
    }
  });
});

describe('removeMade: only what aula made of a former dist goes', () => {
  it('a file put there after the scan stays, with manifest.json and .aula-files to prove the folder to the next build', async () => {
    const parked = tree(listed({ 'v1/cms/event/offset/20.json': '{}', 'data/events/00001.jsonl': 'x' }));
    // written into the former dist while the build swapped (a deploy script, an editor)
    fs.writeFileSync(join(parked, 'v1', 'late.txt'), 'mine');
    expect(await removeMade(parked, [...MADE, 'v1/cms/event/offset/20.json', 'data/events/00001.jsonl'])).toEqual(['v1/late.txt']);
    expect(fs.readdirSync(parked).sort()).toEqual(['.aula-files', 'manifest.json', 'v1']);
    expect(fs.readdirSync(join(parked, 'v1'))).toEqual(['late.txt']);
  });

  it('with nothing else left, the proof goes last and the folder with it', async () => {
    const parked = tree(listed({ 'v1/cms/event/offset/20.json': '{}' }));
    expect(await removeMade(parked, [...MADE, 'v1/cms/event/offset/20.json'])).toEqual([]);
    expect(existsSync(parked)).toBe(false);
  });

  it('the files the new dist shares go first: `meanwhile` runs once, when they are gone, before the removal ends', async () => {
    const shared = 'data/events/00000.jsonl';
    const parked = tree(listed({ 'v1/cms/event/offset/20.json': '{}' }));
    const seen: string[][] = [];
    const meanwhile = () => seen.push(['v1/cms/event/index.json', shared, 'v1/cms/event/offset/20.json'].filter((f) => existsSync(join(parked, f))));
    expect(await removeMade(parked, [...MADE, 'v1/cms/event/offset/20.json'], { shared: (rel) => rel === shared, meanwhile })).toEqual([]);
    // (the others may be gone already: their unlinks were under way)
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(shared);
    expect(existsSync(parked)).toBe(false);
  });

  it('a listed name that is now somebody\'s link stays; a link is never followed', async () => {
    const elsewhere = tree({ 'keep.txt': 'mine' });
    const listedDist = tree(listed());
    fs.rmSync(join(listedDist, 'v1', 'cms', 'event', 'index.json'));
    fs.symlinkSync(join(elsewhere, 'keep.txt'), join(listedDist, 'v1', 'cms', 'event', 'index.json'));
    expect(await removeMade(listedDist, MADE)).toEqual(['v1/cms/event/index.json']);
    expect(fs.readlinkSync(join(listedDist, 'v1', 'cms', 'event', 'index.json'))).toBe(join(elsewhere, 'keep.txt'));
    expect(readFileSync(join(elsewhere, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('a symbolic link it did not list stays, and is never followed', async () => {
    const outside = tree({ 'keep.txt': 'mine' });
    const parked = tree(listed());
    fs.symlinkSync(outside, join(parked, 'v1', 'link'));
    expect(await removeMade(parked, MADE)).toEqual(['v1/link']);
    expect(fs.readlinkSync(join(parked, 'v1', 'link'))).toBe(outside);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
  });
});
