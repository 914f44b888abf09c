// Whatever stands at a build cache file's path — a FIFO, a link to /dev/zero, a symbolic or hard
// link to a file elsewhere — the build neither hangs, nor fills memory, nor writes through it:
// it treats the file as absent (src/pipeline/cache/cache-file.ts).
import { spawnSync } from 'node:child_process';
import { linkSync, lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aula } from '../aula-cli.ts';
import { distDigests } from '../clean-build.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { buildOk, removeDir, tempDir, writeContent } from '../helpers.ts';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const build = (content: string, out: string, cache: string) => aula(['build', '--content', content, '--out', out, '--cache', cache, '--quiet']);

describe('cache files that are not what aula wrote', () => {
  it('a FIFO, /dev/zero, and links to files elsewhere: the build ends, as a clean one, and writes nothing through them', () => {
    const root = tempDir('aula-cache-files-');
    roots.push(root);
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    const out = join(root, 'dist');
    const cache = join(root, 'cache');
    expect(build(content, out, cache).code).toBe(0);
    const files = readdirSync(cache);
    const named = (prefix: string, suffix: string) => join(cache, files.find((f) => f.startsWith(prefix) && f.endsWith(suffix))!);
    const outside = (name: string) => {
      const path = join(root, name);
      writeFileSync(path, `precious ${name}\n`);
      return path;
    };
    // the ledger /dev/zero, the event state a FIFO; at the names of files earlier versions kept
    // (removed where aula wrote them), links to files outside the cache (symbolic and hard)
    const swap = (path: string, make: (path: string) => void) => {
      rmSync(path, { force: true });
      make(path);
    };
    const id = /^dist-([0-9a-f]{16})-/.exec(files.find((f) => f.startsWith('dist-'))!)![1];
    swap(named('dist-', '.json'), (p) => symlinkSync('/dev/zero', p));
    swap(named('dist-', '.events'), (p) => expect(spawnSync('mkfifo', [p]).status).toBe(0));
    const dataVictim = outside('autocomplete-data.txt');
    writeFileSync(dataVictim, 'AULADIR\nprecious autocomplete-data.txt\n');
    swap(join(cache, `autocomplete-data-${id}.bin`), (p) => symlinkSync(dataVictim, p));
    const packVictim = outside('pack.txt');
    writeFileSync(packVictim, 'AULACACHE\nprecious pack.txt\n');
    swap(join(cache, `parsed-${id}.bin`), (p) => linkSync(packVictim, p));
    // an edit, so that the build has something to append
    const event = readdirSync(join(content, 'events'), { recursive: true }).map(String).find((f) => f.endsWith('.md'))!;
    const path = join(content, 'events', event);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^title: .*$/m, 'title: Changed by the test'));

    // (a hang on the FIFO or /dev/zero ends in the runner's safety net, and fails)
    const r = build(content, out, cache);
    expect([r.code, r.err]).toEqual([0, '']);
    expect(readFileSync(dataVictim, 'utf8')).toBe('AULADIR\nprecious autocomplete-data.txt\n');
    expect(readFileSync(packVictim, 'utf8')).toBe('AULACACHE\nprecious pack.txt\n');
    // and the dist is what a build without the cache makes
    const clean = join(root, 'clean');
    expect(aula(['build', '--content', content, '--out', clean, '--no-cache', '--quiet']).code).toBe(0);
    expect(distDigests(out)).toEqual(distDigests(clean));
  });

  it('a link planted where a temporary used to be named (<file>.<pid>.tmp) is not written through', async () => {
    const root = tempDir('aula-cache-temps-');
    roots.push(root);
    const out = join(root, 'dist');
    const cache = join(root, 'cache');
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    // in this process, so that its pid is the one a planted name would guess
    await buildOk({ content, out, cache });
    const names = readdirSync(cache);
    // every kind of file the cache keeps, each written anew by the next build
    expect(names.map((n) => n.replace(/-[0-9a-f]{16}/g, '-ID')).sort()).toEqual(['dist-ID-ID.events', 'dist-ID-ID.json']);
    const victims = names.map((name) => {
      const victim = join(root, `victim-${name}`);
      writeFileSync(victim, 'precious\n');
      rmSync(join(cache, name));
      symlinkSync(victim, join(cache, `${name}.${process.pid}.tmp`));
      return victim;
    });
    symlinkSync(join(root, 'victim-probe'), join(cache, `stat-probe.${process.pid}.tmp`));
    rmSync(out, { recursive: true });
    await buildOk({ content, out, cache });
    for (const victim of victims) expect([victim, readFileSync(victim, 'utf8')]).toEqual([victim, 'precious\n']);
    // the cache was written all the same, as files of its own
    for (const name of names) expect([name, lstatSync(join(cache, name)).isFile()]).toEqual([name, true]);
  });
});
