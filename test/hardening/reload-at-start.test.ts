// A SIGHUP while `aula serve --workers` starts (a deploy script signals as soon as it has swapped
// dist/ in): node's default for SIGHUP ends a process, so a worker still loading, sent the signal,
// died and the primary stopped the whole server. The primary holds the signal for a worker until it
// listens, then sends it: each worker reloads once, and the server keeps answering.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startAula } from '../aula-cli.ts';
import { request, sampleDist } from '../helpers.ts';

/** Resolves once process `pid` has a child (the primary has forked its workers). */
async function forked(pid: number): Promise<void> {
  for (;;) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
    } catch {
      // (gone: the caller's waits reject on the exit)
      return;
    }
    if (children.trim() !== '') return;
    await new Promise((r) => setImmediate(r));
  }
}

describe('aula serve --workers, signalled with SIGHUP while its workers start', () => {
  it('keeps serving: each worker reloads once it listens', async () => {
    const dist = sampleDist();
    const server = startAula(['serve', '--dist', dist, '--port', '0', '--workers', '2', '--quiet']);
    try {
      await forked(server.child.pid!);
      server.child.kill('SIGHUP');
      const origin = await server.origin;
      // one "reloaded" line per worker, each after that worker listened
      await server.waitFor(/reloaded[^\n]*\n[^]*reloaded/);
      expect(server.err).not.toContain('exited');
      expect((await request(`${origin}/v1/cms/event/?limit=1`)).status).toBe(200);
    } finally {
      const end = await server.stop();
      expect(end.code, `${end.signal} ${end.err}`).toBe(0);
    }
  });
});
