// bench/start-up.ts, over the bundled sample built with --edge: every first request it asks is one
// the server and workerd answer (a 4xx would measure a refusal, not the index it is there for), and
// the report judges each by its CPU time. The figures themselves are the bench's.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_AUTOCOMPLETE, FIRST_REQUESTS, measureEdgeFirst, measureStartUp, startUpMarkdown, type EdgeStartUp, type StartUp } from '../bench/start-up.ts';
import { buildOk, removeDir, SAMPLE_CONTENT, tempDir } from './helpers.ts';

const root = tempDir('aula-bench-start-up-');
const dist = join(root, 'dist');
afterAll(() => removeDir(root));
beforeAll(async () => {
  await buildOk({ content: SAMPLE_CONTENT, out: dist, edge: true, precompress: false });
});

describe('start → full speed', () => {
  let serve: StartUp;
  let edge: EdgeStartUp | { unavailable: string };

  it('measures aula serve: its CPU after the first answer, and each kind of first request answered 200', async () => {
    // settled after 0.5 s of quiet: the sample's server has nothing to do after its first answer
    serve = await measureStartUp(dist, 500);
    expect(serve.first.map((f) => f.kind)).toEqual([...FIRST_REQUESTS, ...FIRST_AUTOCOMPLETE].map(([kind]) => kind));
    for (const f of serve.first) expect(f.status, f.kind).toBe(200);
    expect(serve.backgroundCpuMs).toBeGreaterThanOrEqual(0);
    expect(serve.startCpuMs).toBeGreaterThan(0);
  });

  it('measures workerd over the edge bundle the same way, and leaves no config behind in the dist', async () => {
    edge = await measureEdgeFirst(dist);
    if ('unavailable' in edge) return;
    for (const f of edge.first) expect(f.status, f.kind).toBe(200);
    expect(edge.loadCpuMs).toBeGreaterThan(0);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dist, 'edge/bench-workerd.capnp'))).toBe(false);
  });

  it('reports a verdict per row by CPU time against the targets', () => {
    const markdown = startUpMarkdown(serve, edge);
    const rows = markdown.split('\n').filter((l) => /^\| (?!first request|---)/.test(l));
    expect(rows).toHaveLength(serve.first.length);
    for (const row of rows) expect(row).toMatch(/\| (met|\*\*missed\*\*) \|/);
  });
});
