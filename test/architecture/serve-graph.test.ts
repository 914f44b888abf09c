// What a real `aula serve` loads: started with a hook that logs every module, it must load the
// serve layers only — no content loader, renderer, writer, build pipeline or their packages.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureSite } from '../helpers.ts';
import { layerOf } from './graph.ts';
import { SERVE_LAYERS } from './rules.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = fixtureSite();

/** Starts `aula serve` under the logging hook, waits for one answer, stops it; the loaded module URLs. */
async function modulesLoadedByServe(dist: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'aula-modules-'));
  const log = join(dir, 'modules.log');
  try {
    const child = spawn(
      process.execPath,
      ['--import', join(import.meta.dirname, 'module-log-hook.mjs'), join(ROOT, 'bin/aula.js'), 'serve', '--dist', dist, '--port', '0', '--host', '127.0.0.1'],
      { env: { ...process.env, AULA_MODULE_LOG: log }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
        if (m) resolve(m[0]);
      });
      child.on('exit', (code) => reject(new Error(`aula serve exited with ${code}: ${out}`)));
    });
    const res = await fetch(`${url}/v1/cms/event/?title__icontains=a&expand=categories`);
    expect(res.status).toBe(200);
    await fetch(`${url}/v1/api/autocomplete/?q=a`);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('aula serve module graph', () => {
  it('loads only serve-layer modules of src/ and no build-time package', async () => {
    const loaded = await modulesLoadedByServe(site.dist);
    const root = pathToFileURL(ROOT).href;
    const ours = loaded
      .filter((u) => u.startsWith(`${root}/src/`) || u.startsWith(`${root}/lib/`))
      .map((u) => u.slice(root.length + 5).replace(/\?.*$/, '').replace(/\.js$/, '.ts'));
    // the log really saw the serve path (guards against a hook that logs nothing)
    expect(ours).toContain('server/http.ts');
    expect(ours).toContain('query/events/filter.ts');
    const cli = ours.filter((p) => layerOf(p) === 'cli');
    const outside = ours.filter((p) => layerOf(p) !== 'cli' && !SERVE_LAYERS.includes(layerOf(p)!));
    expect(outside).toEqual([]);
    expect(cli.length).toBeGreaterThan(0);
    const packages = loaded.filter((u) => /node_modules\/(?:markdown-it|fast-glob|yaml|minisearch|esbuild|tsx)\//.test(u));
    expect(packages).toEqual([]);
  });
});
