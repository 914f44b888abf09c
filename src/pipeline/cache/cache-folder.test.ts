import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aula } from '../../../test/aula-cli.ts';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { generateContent } from '../../gen/content-generator.ts';
import { defaultCacheDir, tidyCacheFolder } from './cache-folder.ts';

const staleRoot = tempDir('aula-stale-temps-');
afterAll(() => removeDir(staleRoot));

const ID = '0123456789abcdef';
/** A process id no process has (above Linux's pid_max). */
const DEAD = 999_999_999;

describe('tidyCacheFolder', () => {
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
      `dist-${ID}-${ID}.json`,
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
    // the files earlier versions kept go (the stat index, the rows, the parses, the directory's
    // files), known by their heads; a file of such a name that is not one stays, as does a link to one
    const other = 'fedcba9876543210';
    const retired: [string, string, string][] = [
      [`parsed-${ID}.stat`, 'AULASTAT2\n["identity","/content"]\n{}', `parsed-${other}.stat`],
      [`rows-${ID}.bin`, 'AULAROWS\n{"code":"x"} rows crc32c\n', `rows-${other}.bin`],
      [`parsed-${ID}.bin`, 'AULACACHE\n{"code":"x"}\n', `parsed-${other}.bin`],
      [`autocomplete-${ID}.bin`, 'AULADIR\n{"code":"x"}\n', `autocomplete-${other}.bin`],
      [`minisearch-${ID}.bin`, 'AULADIR\n{"code":"x"}\n', `minisearch-${other}.bin`],
      [`autocomplete-data-${ID}.bin`, 'AULADIR\n{"code":"x"}\n', `autocomplete-data-${other}.bin`],
    ];
    mkdirSync(join(staleRoot, 'elsewhere'));
    for (const [name, head, mine] of retired) {
      writeFileSync(join(dir, name), head);
      writeFileSync(join(dir, mine), 'my own notes');
      stale.push(name);
      kept.push(mine);
    }
    writeFileSync(join(staleRoot, 'elsewhere', 'pack'), 'AULACACHE\n{}\n');
    symlinkSync(join(staleRoot, 'elsewhere', 'pack'), join(dir, `parsed-${'1'.repeat(16)}.bin`));
    kept.push(`parsed-${'1'.repeat(16)}.bin`);
    // a retired name with another kind's head is not a file aula wrote there
    const crossed: [string, string][] = [[`rows-${'2'.repeat(16)}.bin`, 'AULASTAT3\nxx'], [`autocomplete-data-${'2'.repeat(16)}.bin`, 'AULAROWS\n'], [`parsed-${'2'.repeat(16)}.bin`, 'AULADIR\nxx'], [`parsed-${'2'.repeat(16)}.stat`, 'AULAROWS\nxx']];
    for (const [name, head] of crossed) writeFileSync(join(dir, name), head);
    kept.push(...crossed.map(([name]) => name));
    expect(readdirSync(dir).sort()).toEqual([...stale, ...kept].sort());
    tidyCacheFolder(dir);
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
    expect(() => tidyCacheFolder(join(staleRoot, 'absent'))).not.toThrow();
  });

  it('removes a retired file that stores few of its bytes: a compressing file system keeps an old parse pack so', () => {
    const dir = join(staleRoot, 'compressed');
    mkdirSync(dir);
    // a hole stands for what ZFS's compression saves: stat tells the two apart no more than this
    const pack = join(dir, `parsed-${ID}.bin`);
    writeFileSync(pack, 'AULACACHE\n{"code":"x"}\n');
    truncateSync(pack, 64 << 20);
    expect(statSync(pack).blocks * 512).toBeLessThan(16 << 20);
    tidyCacheFolder(dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('runs as a build starts: what a stopped build and earlier versions left goes, the state and ledger are written', async () => {
    const content = join(staleRoot, 'site', 'content');
    await generateContent({ events: 30, directory: 20, seed: 5, outDir: content });
    const cache = join(staleRoot, 'site', 'cache');
    mkdirSync(cache);
    const left = [`dist-${ID}-${ID}.events.${DEAD}-0123456789ab.tmp`, `parsed-${ID}.bin.${DEAD}-0123456789ab.tmp`, `parsed-${ID}.bin`, `minisearch-${ID}.bin`];
    for (const name of left) writeFileSync(join(cache, name), name.endsWith('.tmp') ? 'x' : name.startsWith('parsed') ? 'AULACACHE\n' : 'AULADIR\n');
    const built = aula(['build', '--quiet', '--content', content, '--out', join(staleRoot, 'site', 'dist'), '--cache', cache]);
    expect(built.code, built.err).toBe(0);
    expect(left.filter((name) => existsSync(join(cache, name)))).toEqual([]);
    expect(readdirSync(cache).map((name) => name.replace(/[0-9a-f]{16}/g, 'ID')).sort()).toEqual(['dist-ID-ID.events', 'dist-ID-ID.json']);
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
