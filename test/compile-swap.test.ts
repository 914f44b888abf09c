// `npm run compile` brings lib/ up to date file by file: every aula running from this checkout
// meanwhile (tests started by a concurrent vitest, `aula dev`) keeps finding its modules. It
// removed lib/ first and rewrote it over a second or more, and such runs failed with "Cannot find
// module"; swapped whole by two renames, lib/ was missing between them. Nothing it removes is
// outside lib/.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeDir, tempDir, writeContent } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..');

describe('npm run compile', () => {
  it('never leaves lib/ missing or partial while it works, and leaves no folder of its own behind', async () => {
    // a lib/ that differs from what the sources compile to (files edited, one whose source is
    // gone): each changed file is replaced while the sampling below looks for it
    const watched = ['cli/main.js', 'pipeline/build.js', 'server/http.js'];
    for (const rel of watched) appendFileSync(join(ROOT, 'lib', rel), '\n// not what the sources compile to\n');
    writeFileSync(join(ROOT, 'lib', 'gone-from-src.js'), 'export {};\n');
    // and a link to a folder elsewhere: it goes, what it leads to stays
    const elsewhere = tempDir('aula-compile-elsewhere-');
    writeContent(elsewhere, { 'keep.js': 'mine\n', 'sub/keep.js': 'mine too\n' });
    symlinkSync(elsewhere, join(ROOT, 'lib', 'linked'));
    try {
      await compileWhileLooking(watched);
      expect(existsSync(join(ROOT, 'lib', 'gone-from-src.js'))).toBe(false);
      expect(() => lstatSync(join(ROOT, 'lib', 'linked'))).toThrow();
      expect(readFileSync(join(elsewhere, 'keep.js'), 'utf8')).toBe('mine\n');
      expect(readFileSync(join(elsewhere, 'sub', 'keep.js'), 'utf8')).toBe('mine too\n');
    } finally {
      rmSync(join(ROOT, 'lib', 'linked'), { force: true });
      removeDir(elsewhere);
    }
  });
});

/** Runs the compile, looking for each of `watched` under lib/ every 2 ms until it ends. */
async function compileWhileLooking(watched: readonly string[]): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'compile.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((ok) => child.once('exit', ok));
  let done = false;
  void exited.then(() => (done = true));
  let looks = 0;
  const missing: string[] = [];
  while (!done) {
    looks++;
    for (const rel of watched) if (!existsSync(join(ROOT, 'lib', rel))) missing.push(rel);
    await new Promise((r) => setTimeout(r, 2));
  }
  expect(await exited, err).toBe(0);
  expect(looks).toBeGreaterThan(100);
  expect(missing).toEqual([]);
  for (const rel of watched) expect(readFileSync(join(ROOT, 'lib', rel), 'utf8')).not.toContain('not what the sources compile to');
  expect(readdirSync(ROOT).filter((n) => n.startsWith('.lib-'))).toEqual([]);
}
