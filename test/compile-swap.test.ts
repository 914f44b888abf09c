// `npm run compile` replaces lib/ whole: every aula running from this checkout meanwhile (tests
// started by a concurrent vitest, `aula dev`) keeps finding its modules. It removed lib/ first and
// rewrote it over a second or more, and such runs failed with "Cannot find module".
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

describe('npm run compile', () => {
  it('never leaves lib/ missing or partial while it works, and leaves no folder of its own behind', async () => {
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
      for (const rel of ['cli/main.js', 'pipeline/build.js', 'server/http.js']) if (!existsSync(join(ROOT, 'lib', rel))) missing.push(rel);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await exited, err).toBe(0);
    expect(looks).toBeGreaterThan(100);
    expect(missing).toEqual([]);
    expect(readdirSync(ROOT).filter((n) => n.startsWith('.lib-'))).toEqual([]);
  }, 120_000);
});
