import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAula } from '../../../test/aula-cli.ts';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { generateContent } from '../../gen/content-generator.ts';
import { removeStaleTemps } from './stale-temps.ts';

const root = tempDir('aula-stale-temps-');
afterAll(() => removeDir(root));

const ID = '0123456789abcdef';
/** A process id no process has (above Linux's pid_max). */
const DEAD = 999_999_999;

describe('removeStaleTemps', () => {
  it("removes the cache's temporary files of processes no longer running, and nothing else", () => {
    const dir = join(root, 'cache');
    mkdirSync(dir);
    const stale = [
      `parsed-${ID}.bin.${DEAD}.tmp`,
      `parsed-${ID}.stat.${DEAD}.tmp`,
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
      `rows-${ID}.bin`,
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
    expect(removeStaleTemps(dir).sort()).toEqual([...stale].sort());
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
    expect(removeStaleTemps(join(root, 'absent'))).toEqual([]);
  });

  it('clears what a build stopped by Ctrl-C left in the cache, at the next build', async () => {
    const content = join(root, 'site', 'content');
    await generateContent({ events: 3000, directory: 2000, seed: 5, outDir: content });
    const cache = join(root, 'site', 'cache');
    const args = ['build', '--content', content, '--out', join(root, 'site', 'dist'), '--cache', cache];
    // stopped as soon as it has begun writing its temporary files
    const { child } = startAula(args, { stdio: 'ignore' });
    const temps = () => (existsSync(cache) ? readdirSync(cache).filter((name) => name.endsWith('.tmp')) : []);
    // (the pack's spill or the threads' rows: files that last while the content is loaded)
    const lasting = () => temps().filter((name) => /^(parsed|rows)-/.test(name));
    for (let waited = 0; lasting().length === 0 && waited < 300_000; waited += 20) await new Promise((done) => setTimeout(done, 20));
    child.kill('SIGINT');
    await new Promise((done) => child.once('exit', done));
    expect(lasting().length).toBeGreaterThan(0);
    // the next build removes them (their process is gone) and writes its cache
    expect((await startAula(args, { stdio: 'ignore' }).exited).code).toBe(0);
    expect(temps()).toEqual([]);
    expect(readdirSync(cache).some((name) => name.startsWith('parsed-') && name.endsWith('.bin'))).toBe(true);
  });
});
