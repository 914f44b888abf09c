// What a real `aula serve` loads: started with a hook that logs every module, it must load the
// serve layers only — no content loader, renderer, writer, build pipeline or their packages.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startAula } from '../aula-cli.ts';
import { sampleDist } from '../helpers.ts';
import { layerOf } from './graph.ts';
import { SERVE_LAYERS } from './rules.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Starts `aula serve` under the logging hook, waits for one answer, stops it; the loaded module URLs. */
async function modulesLoadedByServe(dist: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'aula-modules-'));
  const log = join(dir, 'modules.log');
  try {
    const serve = startAula(['serve', '--dist', dist, '--port', '0', '--host', '127.0.0.1'], {
      node: ['--import', join(import.meta.dirname, 'module-log-hook.mjs')],
      env: { ...process.env, AULA_MODULE_LOG: log },
    });
    try {
      const url = await serve.origin;
      const res = await fetch(`${url}/v1/cms/event/?title__icontains=a&expand=categories`);
      expect(res.status).toBe(200);
      await fetch(`${url}/v1/api/autocomplete/?q=a`);
    } finally {
      await serve.stop();
    }
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('aula serve module graph', () => {
  it('loads only serve-layer modules of src/ and no build-time package', async () => {
    const loaded = await modulesLoadedByServe(sampleDist());
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
    // of entities, its decoder alone (search-text.ts): its index loads the encoders and their tables too
    const entities = loaded.filter((u) => /node_modules\/entities\//.test(u)).map((u) => u.replace(/^.*node_modules\/entities\/dist\//, ''));
    expect(entities).toContain('decode.js');
    expect(entities.filter((f) => !/^(?:decode|decode-codepoint|generated\/decode-data-html|internal\/.*)\.js$/.test(f))).toEqual([]);
  });
});
