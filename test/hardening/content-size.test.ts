// Content files too large to be content: each is measured (fstat) before a byte of it is read, and
// one past the limit is one line naming the file and the limit, at once — through `aula check`,
// `aula build` and a running `aula dev`. The files are sparse (truncate), so 600 MB cost nothing.
// Media files named by `file:` are copied, not parsed: their limit is their own.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONTENT_FILE_BYTES, readContentFile } from '../../src/content/files.ts';
import { MAX_MEDIA_FILE_BYTES } from '../../src/content/media.ts';
import { aula as run, startAula } from '../aula-cli.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { removeDir, request, tempDir, writeContent } from '../helpers.ts';

const MB600 = 600 * 1024 * 1024;
const TOO_LARGE = (file: string) => `${file}:1:1 is 600 MiB, more than the 16 MiB a content file may have; split it into several files`;

let root: string;
let n = 0;
beforeAll(() => {
  root = tempDir('aula-size-');
});
afterAll(() => removeDir(root));

/** A fixture content folder with `huge` (relative paths) made sparse files of `bytes`. */
function contentWith(huge: string[], bytes = MB600): string {
  const dir = writeContent(join(root, `c${n++}`), FIXTURE_FILES);
  for (const rel of huge) {
    writeFileSync(join(dir, rel), '');
    truncateSync(join(dir, rel), bytes);
  }
  return dir;
}

const aula = (...args: string[]) => {
  const r = run(args);
  return { status: r.code, stdout: r.out, stderr: r.err };
};

describe('a content file larger than the limit', () => {
  it('is one line naming the file and the limit in `aula check` and `aula build`, exit 1, nothing written', () => {
    const dir = contentWith(['events/huge.md', 'directory/huge.yaml']);
    const check = aula('check', '--content', dir);
    expect([check.status, check.stderr.trimEnd().split('\n')]).toEqual([1, [TOO_LARGE('directory/huge.yaml'), TOO_LARGE('events/huge.md'), '2 problems found.']]);
    const out = join(root, `out${n}`);
    const build = aula('build', '--content', dir, '--out', out, '--quiet');
    expect([build.status, build.stderr.trimEnd().split('\n')]).toEqual([1, [TOO_LARGE('directory/huge.yaml'), TOO_LARGE('events/huge.md'), '2 problems found; nothing was written.']]);
    expect(existsSync(out)).toBe(false);
    // as JSON for CI, the same problem
    const json = aula('check', '--content', dir, '--format', 'json');
    expect(JSON.parse(json.stdout)).toContainEqual({ file: 'events/huge.md', line: 1, column: 1, key: '', message: 'is 600 MiB, more than the 16 MiB a content file may have; split it into several files' });
  });

  it('is measured before it is read: the limit itself is read, one byte more is not', () => {
    const dir = join(root, `c${n++}`);
    mkdirSync(dir);
    for (const [name, bytes] of [['at.yaml', MAX_CONTENT_FILE_BYTES], ['past.yaml', MAX_CONTENT_FILE_BYTES + 1]] as const) {
      writeFileSync(join(dir, name), '');
      truncateSync(join(dir, name), bytes);
    }
    const at = readContentFile(dir, 'at.yaml');
    expect(at.ok && at.text.length).toBe(MAX_CONTENT_FILE_BYTES);
    expect(readContentFile(dir, 'past.yaml', undefined, true)).toEqual({
      ok: false,
      problem: { file: 'past.yaml', line: 1, column: 1, key: '', message: 'is 16.1 MiB, more than the 16 MiB a content file may have; split it into several files' },
    });
  });

  it('is reported by a running `aula dev`, which keeps serving what it served', async () => {
    const dir = writeContent(join(root, `c${n++}`), FIXTURE_FILES);
    const dev = startAula(['dev', '--content', dir, '--out', join(root, `dev${n}`), '--port', '0']);
    try {
      const origin = await dev.origin;
      const status = () => request(`${origin}/v1/cms/event/42/`).then((a) => a.status, () => 0);
      expect(await status()).toBe(200);
      // its watcher is in place: the file made from now on is seen
      await dev.waitFor(/watching .* for changes/);
      writeFileSync(join(dir, 'events/huge.md'), '');
      truncateSync(join(dir, 'events/huge.md'), MB600);
      // (the empty file written first may be seen, and reported, before its new size is)
      await dev.waitFor(/events\/huge\.md:1:1 is 600 MiB/);
      expect(`${dev.out}${dev.err}`).toContain(TOO_LARGE('events/huge.md'));
      expect(await status()).toBe(200);
    } finally {
      await dev.stop();
    }
  });
});

describe('a media file larger than its limit', () => {
  it('is a problem at its `file:` key in `aula check`, not an unexpected error of the build', () => {
    expect(MAX_MEDIA_FILE_BYTES).toBe(1024 * 1024 * 1024);
    const dir = contentWith([]);
    const media = readFileSync(join(dir, 'media.yaml'), 'utf8');
    writeFileSync(join(dir, 'film.mp4'), '');
    truncateSync(join(dir, 'film.mp4'), 3 * 1024 * 1024 * 1024);
    appendFileSync(join(dir, 'media.yaml'), `${media.endsWith('\n') ? '' : '\n'}- id: 990\n  filename: film.mp4\n  file: film.mp4\n`);
    const line = media.split('\n').length + (media.endsWith('\n') ? 2 : 3);
    const check = aula('check', '--content', dir);
    expect([check.status, check.stderr.trimEnd().split('\n')]).toEqual([1, [`media.yaml:${line}:9 file: "film.mp4" is 3 GiB, more than the 1 GiB a media file may have`, '1 problem found.']]);
    const build = aula('build', '--content', dir, '--out', join(root, `out${n}`), '--quiet');
    expect(build.status).toBe(1);
    expect(build.stderr).not.toContain('unexpected error');
    rmSync(join(dir, 'film.mp4'));
  });
});
