import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir, writeContent } from '../../test/helpers.ts';
import { build } from '../pipeline/build.ts';
import { readPrior } from '../pipeline/state/previous-build.ts';
import { namesIn } from '../util/shared-names.ts';
import { beginEarlyStats } from './early-stats.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) removeDir(dir);
});

const OLD = 1_700_000_000;
const event = (id: number, title: string) => `id: ${id}\ntitle: ${title}\nstart: 2025-05-12T10:00:00Z\nend: 2025-05-12T12:00:00Z\nlast_modified: 2025-05-01T00:00:00Z\n`;

/** A site of three events, built once with a cache; its files' times an old whole second. */
async function site() {
  const root = tempDir('aula-early-');
  made.push(root);
  const content = writeContent(join(root, 'content'), { 'site.yaml': 'title: x\nbase_url: http://127.0.0.1:8000\n', 'events/a.yaml': event(1, 'Alpha'), 'events/b.yaml': event(2, 'Beta'), 'events/c.yaml': event(3, 'Gamma') });
  for (const f of ['events/a.yaml', 'events/b.yaml', 'events/c.yaml', 'events', '.']) aged(join(content, f), OLD);
  const options = { content, out: join(root, 'dist'), cache: join(root, 'cache'), statMarginNs: 0n };
  expect((await build(options)).ok).toBe(true);
  return options;
}

/** `path`'s times set to `seconds`: a change dated safely before the next build's time, so no stat of it is racy. */
const aged = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

const titles = (out: string) => (JSON.parse(readFileSync(join(out, 'v1', 'cms', 'event', 'index.json'), 'utf8')) as { results: { title: string }[] }).results.map((e) => e.title).sort();

describe('the recorded event files stat\u2019ed as the command starts', () => {
  it('are the state\u2019s event files, taken by the build over it: an edit made before is found', async () => {
    const options = await site();
    expect(beginEarlyStats({ ...options, cache: undefined })).toBeUndefined();
    writeFileSync(join(options.content, 'events', 'b.yaml'), event(2, 'Beta, longer now'));
    aged(join(options.content, 'events', 'b.yaml'), OLD + 1);
    const early = beginEarlyStats(options)!;
    expect(namesIn(early.names)).toEqual(['events/a.yaml', 'events/b.yaml', 'events/c.yaml']);
    expect(readPrior(options, options.out, await early.state).build?.namesRead).toBe(true);
    const result = await build(options, early);
    expect(result.ok && { taken: result.patch?.taken, parsed: result.cache?.parsed }).toEqual({ taken: true, parsed: 1 });
    expect(titles(options.out)).toEqual(['Alpha', 'Beta, longer now', 'Gamma']);
  });

  it('are let go where the state read whole records other event files (another build wrote it since)', async () => {
    const options = await site();
    const early = beginEarlyStats(options)!;
    rmSync(join(options.content, 'events', 'a.yaml'));
    aged(join(options.content, 'events'), OLD + 1);
    expect((await build(options)).ok).toBe(true);
    writeFileSync(join(options.content, 'events', 'c.yaml'), event(3, 'Gamma, longer now'));
    aged(join(options.content, 'events', 'c.yaml'), OLD + 2);
    expect(readPrior(options, options.out, await early.state).build?.namesRead).toBe(false);
    const result = await build(options, early);
    expect(result.ok && { taken: result.patch?.taken, parsed: result.cache?.parsed }).toEqual({ taken: true, parsed: 1 });
    expect(titles(options.out)).toEqual(['Beta', 'Gamma, longer now']);
  });
});
