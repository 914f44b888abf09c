// I/O failures of the CLI: one line on stderr naming the path and the cause, exit 1, and nothing
// half-written left behind. A full disk and a read-only file system are real (small tmpfs mounts,
// when the test may mount — it runs as root in CI); the rest are real paths.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aula as run, startAula, type AulaOptions } from '../aula-cli.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { removeDir, SAMPLE_CONTENT, tempDir, writeContent } from '../helpers.ts';

let root: string;
let content: string;
beforeAll(() => {
  root = tempDir('aula-io-');
  content = writeContent(join(root, 'content'), FIXTURE_FILES);
});
afterAll(() => removeDir(root));

const aula = (...args: string[]) => run(args, { cwd: root });
const aulaWith = (options: AulaOptions, ...args: string[]) => run(args, { cwd: root, ...options });

function expectOneLine(r: { code: number | null; err: string }, pattern: RegExp) {
  expect(r.code).toBe(1);
  const lines = r.err.trimEnd().split('\n');
  expect(lines, r.err).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
}

/** A tmpfs of `size` at a new folder, or null when this process may not mount. */
function mountTmpfs(options: string): string | null {
  const dir = join(root, `mnt-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  return r.status === 0 ? dir : null;
}
const unmount = (dir: string) => spawnSync('umount', [dir]);

describe('I/O failures are one line naming the path and the cause', () => {
  it('a full disk (ENOSPC): names the file being written; no staging folder or lock is left', (ctx) => {
    const mnt = mountTmpfs('size=160k');
    if (!mnt) return ctx.skip();
    try {
      const r = aula('build', '--content', SAMPLE_CONTENT, '--out', join(mnt, 'dist'));
      expectOneLine(r, new RegExp(`^aula: ${mnt}/\\.aula-tmp-dist-\\d+-\\d+/\\S+: no space left on the device \\[ENOSPC\\] \\(write\\)$`));
      expect(readdirSync(mnt)).toEqual([]);
    } finally {
      unmount(mnt);
    }
  });

  it('a read-only file system (EROFS)', (ctx) => {
    const mnt = mountTmpfs('ro,size=64k');
    if (!mnt) return ctx.skip();
    try {
      // (the build lock beside the output folder is the first file written)
      expectOneLine(aula('build', '--content', content, '--out', join(mnt, 'dist')), new RegExp(`^aula: cannot write the build lock beside ${mnt}/dist \\(${mnt}/\\S+: read-only file system \\[EROFS\\]\\); --out must be in a folder aula may write to$`));
    } finally {
      unmount(mnt);
    }
  });

  it('a stale lock on a read-only file system (EROFS): one line, not a take-over tried again forever', (ctx) => {
    const mnt = mountTmpfs('size=64k');
    if (!mnt) return ctx.skip();
    try {
      // the lock of a build that ended without removing it (killed, or its release failed), then the
      // file system made read-only, as one is after an I/O error
      writeFileSync(join(mnt, '.aula-lock-dist'), `${spawnSync('true').pid}\n`);
      expect(spawnSync('mount', ['-o', 'remount,ro', mnt]).status).toBe(0);
      const r = aula('build', '--no-cache', '--content', content, '--out', join(mnt, 'dist'));
      expectOneLine(r, new RegExp(`^aula: cannot take over the build lock ${mnt}/\\.aula-lock-dist, left by a build no longer running \\(read-only file system \\[EROFS\\]\\); remove it, or give an --out in a folder aula may write to$`));
    } finally {
      unmount(mnt);
    }
  });

  it('a file where a folder is expected (ENOTDIR), with control characters in the path escaped', () => {
    writeFileSync(join(root, 'a-file'), 'not a folder');
    expectOneLine(aula('build', '--content', content, '--out', join(root, 'a-file', 'dist')), /^aula: .*\/a-file\/dist: a part of the path is a file, not a folder \[ENOTDIR\]/);
    const r = aula('build', '--content', content, '--out', join(root, 'a-file', 'd\x1b[31m\nx'));
    expectOneLine(r, /a-file\/d\\u001b\[31m\\nx: a part of the path is a file, not a folder \[ENOTDIR\]/);
  });

  it('permission denied (EACCES); as root, the build runs as nobody', () => {
    // root writes anywhere, so a root test run (CI) drops to nobody for this one build
    const asRoot = process.getuid?.() === 0;
    const locked = join(root, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    if (asRoot) chmodSync(root, 0o755); // nobody must read the content beside it
    const r = aulaWith({ asNobody: true }, 'build', '--no-cache', '--content', content, '--out', join(locked, 'dist'));
    expectOneLine(r, /^aula: .*locked\/\S+: permission denied \[EACCES\]/);
    expect(readdirSync(locked)).toEqual([]);
  });

  it('a media file the build may not read is a problem of aula check, naming its record', () => {
    // it passed check, and the build failed copying it with a bare EACCES line
    const site = join(root, 'unreadable-media');
    cpSync(SAMPLE_CONTENT, site, { recursive: true });
    chmodSync(root, 0o755);
    chmodSync(join(site, 'media', 'files', 'programm-beispiel.pdf'), 0o000);
    const r = aulaWith({ asNobody: true }, 'check', '--content', site);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^media\/dateien\.yaml:14:\d+ file: "media\/files\/programm-beispiel\.pdf" cannot be read \(EACCES\)$/m);
  });

  it('a folder the file system will not make (under /proc): one line, not a mkdir retried forever', (ctx) => {
    // node's mkdirSync(recursive) retried mkdir("/proc/x") (ENOENT there) for as long as it was let
    if (!existsSync('/proc/self')) return ctx.skip();
    expectOneLine(aula('build', '--content', content, '--out', '/proc/aula-nowhere/dist'), /^aula: \/proc\/aula-nowhere: no such file or folder \[ENOENT\] \(mkdir\)$/);
    // the cache is never needed: without one the build goes on
    const r = aula('build', '--content', content, '--out', join(root, 'proc-cache-dist'), '--cache', '/proc/aula-nowhere');
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(root, 'proc-cache-dist', 'manifest.json'))).toBe(true);
  });

  it('missing files (ENOENT): serve and nginx name the file', () => {
    expectOneLine(aula('serve', '--dist', join(root, 'missing'), '--port', '0'), /^aula: .*missing.*/);
    expectOneLine(aula('nginx', '--dist', join(root, 'missing')), /^aula: .*missing\/manifest\.json: missing; build first with `aula build`$/);
  });
});

/** Runs `aula args` with its standard output a pipe whose reader goes away at its first byte. */
async function withReaderGone(...args: string[]): Promise<{ code: number | null; err: string }> {
  const command = startAula(args, { cwd: root });
  command.child.stdout!.once('data', () => command.child.stdout!.destroy());
  const { code, err } = await command.exited;
  return { code, err };
}

describe('standard output nobody reads', () => {
  it('a reader that goes away (`aula build | head -1`): the build carries on and succeeds, silently', async () => {
    // Before, the next progress line raised EPIPE: a stack trace, exit 1 and no dist/.
    const out = join(root, 'gone-dist');
    const r = await withReaderGone('build', '--content', content, '--out', out);
    expect(r).toEqual({ code: 0, err: '' });
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
  });

  it('aula serve goes on serving, and logging requests, once its log reader has gone', async () => {
    const dist = join(root, 'gone-dist');
    const serve = startAula(['serve', '--dist', dist, '--port', '0'], { cwd: root });
    const { child } = serve;
    try {
      const origin = await serve.origin;
      child.stdout!.destroy();
      // each request writes an access log line to the closed pipe
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${origin}/v1/cms/event/?limit=${i + 1}`);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
      }
      expect(child.exitCode).toBe(null);
      // (a warning about the base URL, no stack trace)
      expect(serve.err).not.toMatch(/EPIPE|Error|\n\s+at /);
    } finally {
      await serve.stop();
    }
  });

  it('output that cannot be written (> /dev/full) is one line and exit 1, after the work is done', (ctx) => {
    if (!existsSync('/dev/full')) return ctx.skip();
    const out = join(root, 'full-dist');
    const full = openSync('/dev/full', 'w');
    try {
      const r = aulaWith({ stdio: ['ignore', full, 'pipe'] }, 'build', '--content', content, '--out', out);
      expectOneLine(r, /^aula: could not write to standard output \(ENOSPC\): some of its output is lost$/);
      // the build was not cut short: its dist/ is whole and its lock is gone
      expect(existsSync(join(out, 'manifest.json'))).toBe(true);
      expect(readdirSync(root).filter((n) => n.startsWith('.aula-'))).toEqual([]);
      const check = aulaWith({ stdio: ['ignore', full, 'pipe'] }, 'check', '--content', content, '--format', 'json');
      expectOneLine(check, /^aula: could not write to standard output \(ENOSPC\)/);
    } finally {
      closeSync(full);
    }
  });
});
