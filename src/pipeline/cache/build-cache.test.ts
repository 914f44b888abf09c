import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startAula } from '../../../test/aula-cli.ts';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import type { Parsed } from '../../content/records.ts';
import { readContentFile } from '../../content/files.ts';
import { generateContent } from '../../gen/content-generator.ts';
import { BuildCache, cacheIdentity, defaultCacheDir, inputsKeyOf, packPath, parseKey, removeStaleTemps, sha256 } from './build-cache.ts';
import { KeyedStore } from './keyed-store.ts';

/** The entries of the pack at `path`, counted. */
function entriesIn(path: string): number {
  const store = new KeyedStore(path, Buffer.from(`AULACACHE\n${cacheIdentity()}\n`));
  const count = store.count;
  store.close();
  return count;
}

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

function pack(): string {
  const root = tempDir('aula-cache-');
  roots.push(root);
  return packPath(join(root, 'cache'), join(root, 'content'));
}

const parsedOf = (text: string): Parsed<{ text: string; n: number; gone: undefined; id: number }> => ({
  records: [{ value: { text, n: text.length, gone: undefined, id: NaN }, file: 'a.yaml', item: null }],
  problems: [],
});

/** Parses every text through a fresh cache over `path`; returns what it parsed anew. */
function run(path: string, texts: string[]) {
  const cache = new BuildCache(path);
  const parsedAnew: string[] = [];
  const results = texts.map((t) => cache.parse('events', `${t}.yaml`, parseKey('events', `${t}.yaml`, t), () => (parsedAnew.push(t), parsedOf(t))));
  cache.save();
  return { cache, parsedAnew, results };
}

const reference = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

describe('sha256', () => {
  it('is a Hash’s digest of the parts end to end, however large', () => {
    const b = (text: string) => Buffer.from(text);
    const cases: Uint8Array[][] = [
      [],
      [b('')],
      [b('one part')],
      [b('Café – „quoted“ 🎉\0'), Buffer.from([0, 1, 2, 255])],
      [Buffer.alloc(32, 7), Buffer.alloc(32, 9), b('12345')],
      // past the scratch buffer's first size, then a small one again in the grown buffer
      [b('prefix\0'), Buffer.alloc(100_000, 'é')],
      [b('a'), b('b')],
    ];
    for (const parts of cases) expect(sha256(...parts).equals(reference(...parts))).toBe(true);
    // a view into a larger buffer is hashed as its own bytes only
    const whole = b('0123456789');
    expect(sha256(whole.subarray(2, 5)).equals(reference(b('234')))).toBe(true);
    expect(sha256(b('x'), whole.subarray(2, 5)).equals(reference(b('x234')))).toBe(true);
  });
});

describe('parseKey', () => {
  it('is the same of a file read as bytes as of its text, a byte order mark and all', () => {
    const dir = tempDir('aula-parse-key-');
    try {
      const texts = ['title: Café – „quoted“ 🎉\n', '\ufefftitle: with a mark\n', '', '\ufeff', 'a\ufeffb'];
      for (const [i, text] of texts.entries()) {
        writeFileSync(join(dir, `${i}.yaml`), text);
        const read = readContentFile(dir, `${i}.yaml`);
        if (!read.ok) throw new Error('not read');
        expect(read.text).toBe(text.replace(/^\ufeff/, ''));
        expect(parseKey('events', `${i}.yaml`, read.bytes).equals(parseKey('events', `${i}.yaml`, read.text))).toBe(true);
      }
      // and it still tells texts apart
      expect(parseKey('events', 'a', Buffer.from('x')).equals(parseKey('events', 'a', 'y'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});

describe('BuildCache', () => {
  it('returns what the parse returned, without parsing again, for the same kind, file and text', () => {
    const path = pack();
    expect(run(path, ['a', 'b']).parsedAnew).toEqual(['a', 'b']);
    const again = run(path, ['a', 'b', 'c']);
    expect(again.parsedAnew).toEqual(['c']);
    expect(again.results[0]).toEqual(parsedOf('a'));
    expect(Object.hasOwn(again.results[0].records[0].value, 'gone')).toBe(true);
    expect(again.cache.stats).toMatchObject({ hits: 2, misses: 1, corrupt: 0, foreign: false });
    // another kind, path or text is another key
    const cache = new BuildCache(path);
    let calls = 0;
    cache.parse('directory', 'a.yaml', parseKey('directory', 'a.yaml', 'a'), () => (calls++, parsedOf('a')));
    cache.parse('events', 'other.yaml', parseKey('events', 'other.yaml', 'a'), () => (calls++, parsedOf('a')));
    expect(calls).toBe(2);
  });

  it('inputsKeyOf: one key per set of files of a kind with their texts, in any order', () => {
    const keyOf = (files: [string, string][]) => inputsKeyOf('directory', files.map(([file, text]) => `${file}\0${parseKey('directory', file, text).toString('hex')}`)).toString('hex');
    const base = keyOf([['a.yaml', 'x'], ['b.yaml', 'y']]);
    expect(keyOf([['b.yaml', 'y'], ['a.yaml', 'x']])).toBe(base);
    expect(keyOf([['a.yaml', 'x'], ['b.yaml', 'z']])).not.toBe(base);
    expect(keyOf([['a.yaml', 'x'], ['c.yaml', 'y']])).not.toBe(base);
    expect(keyOf([['a.yaml', 'x']])).not.toBe(base);
  });

  it('leaves no next file behind, and its entries in the pack', () => {
    const path = pack();
    // the file's buffer fills more than once, and one entry is larger than it
    const many = Array.from({ length: 3000 }, (_, i) => `entry ${i} `.repeat(i % 7 === 0 ? 2000 : 1));
    many.push('x'.repeat(9 << 20));
    expect(run(path, many).parsedAnew).toHaveLength(3001);
    const again = run(path, many);
    expect(again.parsedAnew).toEqual([]);
    expect(again.results).toEqual(many.map(parsedOf));
    expect(readdirSync(join(path, '..'))).toEqual([path.split('/').pop()]);
    run(path, ['a', 'b', 'c']);
    const folder = join(path, '..');
    expect(readdirSync(folder)).toEqual([path.split('/').pop()]);
    expect(entriesIn(path)).toBe(3);
    expect(run(path, ['a', 'b', 'c', 'd']).parsedAnew).toEqual(['d']);
    expect(entriesIn(path)).toBe(4);
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it('appends a few new entries to the pack; writes it anew once a quarter of it is unused, or after a cut', () => {
    const path = pack();
    const texts = Array.from({ length: 12 }, (_, i) => `text ${i}`);
    run(path, texts);
    const first = statSync(path);
    const firstBytes = readFileSync(path);
    expect(run(path, [...texts, 'new']).parsedAnew).toEqual(['new']);
    const appended = statSync(path);
    expect(appended.ino).toBe(first.ino); // the same file, grown by one entry
    expect(appended.size).toBeGreaterThan(first.size);
    expect(readFileSync(path).subarray(0, first.size).equals(firstBytes)).toBe(true);
    expect(entriesIn(path)).toBe(13);
    expect(run(path, [...texts, 'new']).parsedAnew).toEqual([]);
    // 4 of 13 entries unused: written anew with the 9 used
    run(path, texts.slice(0, 9));
    expect(statSync(path).ino).not.toBe(first.ino);
    expect(entriesIn(path)).toBe(9);
    // a pack cut inside its last entry is never appended to (the new entry would sit past the cut)
    writeFileSync(path, readFileSync(path).subarray(0, statSync(path).size - 3));
    expect(run(path, [...texts.slice(0, 9), 'more']).parsedAnew).toEqual([texts[8], 'more']);
    expect(entriesIn(path)).toBe(10);
    expect(run(path, [...texts.slice(0, 9), 'more']).parsedAnew).toEqual([]);
  });

  it('keeps only the entries the last build used', () => {
    const path = pack();
    run(path, ['a', 'b']);
    run(path, ['b']);
    expect(entriesIn(path)).toBe(1);
  });

  it('ignores an entry whose bytes were flipped and parses that file again', () => {
    const path = pack();
    run(path, ['first', 'second']);
    const bytes = readFileSync(path);
    bytes[bytes.length - 3] ^= 0xff; // inside the last payload
    writeFileSync(path, bytes);
    const again = run(path, ['first', 'second']);
    expect(again.parsedAnew).toEqual(['second']);
    expect(again.cache.stats.corrupt).toBe(1);
    expect(again.results[1]).toEqual(parsedOf('second'));
  });

  it('reads a truncated pack up to the cut, and a pack of garbage as none', () => {
    const path = pack();
    run(path, ['first', 'second']);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 10));
    expect(run(path, ['first', 'second']).parsedAnew).toEqual(['second']);
    writeFileSync(path, Buffer.alloc(5000, 0x41));
    const garbage = run(path, ['first']);
    expect(garbage.parsedAnew).toEqual(['first']);
    expect(garbage.cache.stats.foreign).toBe(true);
  });

  it('ignores a pack written by another aula version, or with other time-zone data, whole', () => {
    // the time-zone data and ICU are named: a Node on the system's ICU gets new tzdata without a new version
    expect(JSON.parse(cacheIdentity())).toMatchObject({ tz: process.versions.tz, icu: process.versions.icu });
    for (const [pattern, other] of [[/"aula":"[^"]*"/, '"aula":"0.0.0-other"'], [/"tz":"[^"]*"/, '"tz":"1970a"']] as const) {
      const path = pack();
      run(path, ['a']);
      const text = readFileSync(path, 'latin1');
      const foreign = cacheIdentity().replace(pattern, other);
      expect(foreign).not.toBe(cacheIdentity());
      writeFileSync(path, Buffer.from(text.replace(cacheIdentity(), foreign), 'latin1'));
      const again = run(path, ['a']);
      expect(again.parsedAnew).toEqual(['a']);
      expect(again.cache.stats.foreign).toBe(true);
      // and the next build writes a pack of its own version
      expect(run(path, ['a']).parsedAnew).toEqual([]);
    }
  });

  it('a cache folder that cannot be written costs nothing but speed', () => {
    const root = tempDir('aula-cache-');
    roots.push(root);
    writeFileSync(join(root, 'file'), 'not a folder');
    const path = packPath(join(root, 'file', 'cache'), root);
    expect(run(path, ['a']).parsedAnew).toEqual(['a']);
    expect(run(path, ['a']).parsedAnew).toEqual(['a']);
  });
});

const staleRoot = tempDir('aula-stale-temps-');
afterAll(() => removeDir(staleRoot));

const ID = '0123456789abcdef';
/** A process id no process has (above Linux's pid_max). */
const DEAD = 999_999_999;

describe('removeStaleTemps', () => {
  it("removes the cache's temporary files of processes no longer running, and nothing else", () => {
    const dir = join(staleRoot, 'cache');
    mkdirSync(dir);
    const stale = [
      `parsed-${ID}.bin.${DEAD}.tmp`,
      `rows-${ID}.bin.${DEAD}.tmp`,
      `rows-${ID}.bin.${DEAD}-0123456789ab.tmp`,
      `minisearch-${ID}.bin.${DEAD}.tmp`,
      `autocomplete-${ID}.bin.${DEAD}.tmp`,
      `dist-${ID}-${ID}.json.${DEAD}.tmp`,
      `dist-${ID}-${ID}.events.${DEAD}.tmp`,
      `stat-probe.${DEAD}.tmp`,
      // as openTemporary names them (cache-file.ts)
      `parsed-${ID}.bin.${DEAD}-0123456789ab.tmp`,
      `dist-${ID}-${ID}.json.${DEAD}-0123456789ab.tmp`,
      `stat-probe.${DEAD}-0123456789ab.tmp`,
    ];
    const kept = [
      // the cache's own files, a running process's temporaries (this one's, its parent's)
      `parsed-${ID}.bin`,
      `parsed-${ID}.bin.${process.pid}.tmp`,
      `rows-${ID}.bin.${process.ppid}-0123456789ab.tmp`,
      // names aula does not make
      `notes.${DEAD}.tmp`,
      `parsed-${ID}.bin.${DEAD}.tmp.keep`,
      `parsed-xyz.bin.${DEAD}.tmp`,
      `rows-${ID}.bin.${DEAD}-xyz.tmp`,
      `my-parsed-${ID}.bin.${DEAD}.tmp`,
    ];
    for (const name of [...stale, ...kept]) writeFileSync(join(dir, name), 'x');
    // the stat index and the rows earlier versions kept go; a file of such a name that is not one stays
    const other = 'fedcba9876543210';
    writeFileSync(join(dir, `parsed-${ID}.stat`), 'AULASTAT2\n["identity","/content"]\n{}');
    writeFileSync(join(dir, `parsed-${other}.stat`), 'my own notes');
    writeFileSync(join(dir, `rows-${ID}.bin`), 'AULAROWS\n{"code":"x"} rows crc32c\n');
    writeFileSync(join(dir, `rows-${other}.bin`), 'my own rows');
    stale.push(`parsed-${ID}.stat`, `rows-${ID}.bin`);
    kept.push(`parsed-${other}.stat`, `rows-${other}.bin`);
    expect(removeStaleTemps(dir).sort()).toEqual([...stale].sort());
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
    expect(removeStaleTemps(join(staleRoot, 'absent'))).toEqual([]);
  });

  it('clears what a build stopped by Ctrl-C left in the cache, at the next build', async () => {
    const content = join(staleRoot, 'site', 'content');
    await generateContent({ events: 3000, directory: 2000, seed: 5, outDir: content });
    const cache = join(staleRoot, 'site', 'cache');
    const args = ['build', '--content', content, '--out', join(staleRoot, 'site', 'dist'), '--cache', cache];
    // stopped as soon as it has begun writing its temporary files
    const { child } = startAula(args, { stdio: 'ignore' });
    const temps = () => (existsSync(cache) ? readdirSync(cache).filter((name) => name.endsWith('.tmp')) : []);
    // (the pack's spill or the threads' rows: files that last while the content is loaded)
    const lasting = () => temps().filter((name) => /^(parsed|rows)-/.test(name));
    for (let waited = 0; lasting().length === 0 && child.exitCode === null && waited < 300_000; waited += 20) await new Promise((done) => setTimeout(done, 20));
    child.kill('SIGINT');
    await new Promise((done) => child.once('exit', done));
    expect(lasting().length).toBeGreaterThan(0);
    // the next build removes them (their process is gone) and writes its cache
    expect((await startAula(args, { stdio: 'ignore' }).exited).code).toBe(0);
    expect(temps()).toEqual([]);
    expect(readdirSync(cache).some((name) => name.startsWith('parsed-') && name.endsWith('.bin'))).toBe(true);
  });
});

describe('defaultCacheDir', () => {
  it('is node_modules/.cache/aula of the nearest project, and outside any project a folder of the user cache per working folder', () => {
    const root = tempDir('default-cache-');
    try {
      mkdirSync(join(root, 'site', 'sub'), { recursive: true });
      writeFileSync(join(root, 'site', 'package.json'), '{}');
      expect(defaultCacheDir(join(root, 'site', 'sub'))).toBe(join(root, 'site', 'node_modules', '.cache', 'aula'));
      const env = { XDG_CACHE_HOME: join(root, 'xdg') };
      const outside = defaultCacheDir(root, env);
      expect(outside).toMatch(new RegExp(`^${join(root, 'xdg', 'aula')}/[0-9a-f]{16}$`));
      expect(defaultCacheDir(root, env)).toBe(outside);
      expect(defaultCacheDir(join(root, 'site-less'), env)).not.toBe(outside);
      // a relative XDG_CACHE_HOME is ignored (XDG): ~/.cache, never a folder in the working folder
      expect(defaultCacheDir(root, { XDG_CACHE_HOME: 'relative', HOME: join(root, 'home') })).toMatch(new RegExp(`^${join(root, 'home', '.cache', 'aula')}/[0-9a-f]{16}$`));
      // no home folder to be found, or an empty or relative HOME: no cache
      expect(defaultCacheDir(root, { HOME: '' })).toBeUndefined();
      expect(defaultCacheDir(root, { HOME: 'home' })).toBeUndefined();
    } finally {
      removeDir(root);
    }
  });
});
