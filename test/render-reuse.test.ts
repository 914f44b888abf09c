// Render and page reuse: with a cache, an unchanged event's row is the previous dist's and an
// event-list page whose rows and envelope are unchanged is linked from the previous dist instead
// of being answered — and every such build writes the bytes a clean build writes.
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, type BuildOptions } from '../src/pipeline/build.ts';
import { listFiles } from '../src/util/same-files.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { removeDir, tempDir } from './helpers.ts';

const root = tempDir('aula-render-reuse-');
afterAll(() => removeDir(root));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const digests = (dist: string) => new Map(listFiles(dist).filter((rel) => rel !== 'changes.json').map((rel) => [rel, sha(readFileSync(join(dist, rel)))]));

let serial = 0;
/** An incremental build, checked against a clean build of the same content; its reuse figures. */
async function incremental(options: BuildOptions) {
  const result = await build(options);
  if (!result.ok) throw new Error('build failed');
  const clean = join(root, `clean-${serial++}`);
  const fresh = await build({ ...options, out: clean, cache: undefined });
  expect(fresh.ok).toBe(true);
  expect(digests(options.out)).toEqual(digests(clean));
  removeDir(clean);
  return { ...result.reuse!, pageCount: result.manifest.counts.event_list_pages };
}

describe('render and page reuse', () => {
  it('renders only changed events, links only unchanged pages, and proves both', async () => {
    const content = join(root, 'content');
    await generateContent({ events: 200, directory: 30, seed: 11, outDir: content });
    const options = { content, out: join(root, 'dist'), cache: join(root, 'cache') };

    const first = await incremental(options);
    expect(first.rows).toEqual({ reused: 0, rendered: 200 });
    expect(first.pages).toBe(0);

    // nothing changed: every row from the cache, every page linked
    const same = await incremental(options);
    expect(same.rows).toEqual({ reused: 200, rendered: 0 });
    expect(same.pages).toBe(same.pageCount);

    // one event's title in a file of several: that file's rows rendered (a row is kept under its
    // file's parse key), and only the one page whose bytes changed answered
    const file = join(content, listFiles(content).find((f) => f.startsWith('events/') && f.endsWith('.yaml'))!);
    const text = readFileSync(file, 'utf8');
    const inFile = text.match(/^- id: /gm)!.length;
    expect(inFile).toBeGreaterThan(1);
    writeFileSync(file, text.replace(/^(- id: \d+\n  title: )(.*)$/m, '$1Verlegte Veranstaltung'));
    const one = await incremental(options);
    expect(one.rows).toEqual({ reused: 200 - inFile, rendered: inFile });
    expect(one.pages).toBe(one.pageCount - 1);

    // a page changed by hand in the dist (same size): not proven, so answered again, and put right
    const page = join(options.out, 'v1/cms/event/offset/40.json');
    const bytes = readFileSync(page);
    bytes[bytes.indexOf('"title":') + 9] ^= 0x01;
    writeFileSync(page, bytes);
    const handEdited = await incremental(options);
    expect(handEdited.pages).toBe(handEdited.pageCount - 1);

    // a category edit does not shape a row or a page
    writeFileSync(join(content, 'categories.yaml'), readFileSync(join(content, 'categories.yaml'), 'utf8').replace(/^( {2}title: )(.*)$/m, '$1Umbenannt'));
    const category = await incremental(options);
    expect(category.rows.rendered).toBe(0);
    expect(category.pages).toBe(category.pageCount);

    // another base URL reaches every row and page
    const moved = await incremental({ ...options, baseUrl: 'https://events.example.org/sub' });
    expect(moved.rows).toEqual({ reused: 0, rendered: 200 });
    expect(moved.pages).toBe(0);

    // another page size: the site is part of every row's context, so every row is made anew (to
    // the same bytes); the pages are all new
    writeFileSync(join(content, 'site.yaml'), readFileSync(join(content, 'site.yaml'), 'utf8').replace(/^page_size: .*$/m, 'page_size: 7'));
    const resized = await incremental({ ...options, baseUrl: 'https://events.example.org/sub' });
    expect(resized.rows).toEqual({ reused: 0, rendered: 200 });
    expect(resized.pages).toBe(0);
    expect(statSync(join(options.out, 'v1/cms/event/offset/7.json')).isFile()).toBe(true);
  });
});
