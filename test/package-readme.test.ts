// Every `curl` line of the README, against the bundled sample served by a real `aula serve`:
// each must answer 200 with something in it (a count above 0, results, or a non-empty body).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOk, removeDir, SAMPLE_CONTENT, tempDir, listeningOrigin } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..');
const README_ORIGIN = 'http://127.0.0.1:8000';

/** The URLs of every curl command in the README, in code blocks or inline. */
export function readmeCurlUrls(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/\bcurl\s+'?(https?:\/\/[^\s'`]+)/g)].map((m) => m[1]);
}

let dir: string;
let child: ChildProcess;
let origin: string;

beforeAll(async () => {
  dir = tempDir('aula-readme-');
  await buildOk({ content: SAMPLE_CONTENT, out: join(dir, 'dist') });
  child = spawn(process.execPath, [join(ROOT, 'bin', 'aula.js'), 'serve', '--dist', join(dir, 'dist'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  origin = await listeningOrigin(child, 'aula serve');
});

afterAll(() => {
  child?.kill('SIGTERM');
  if (dir) removeDir(dir);
});

describe('README curl examples on the bundled sample', () => {
  const urls = readmeCurlUrls();

  it('finds the examples', () => {
    expect(urls.length).toBeGreaterThanOrEqual(8);
    for (const url of urls) expect(url.startsWith(`${README_ORIGIN}/`), url).toBe(true);
  });

  it.each(urls)('%s answers something', async (url) => {
    const res = await fetch(origin + url.slice(README_ORIGIN.length));
    const text = await res.text();
    expect(res.status, text.slice(0, 200)).toBe(200);
    expect(text.length).toBeGreaterThan(0);
    if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
      const body = JSON.parse(text);
      if ('count' in body) expect(body.count, url).toBeGreaterThan(0);
      if ('results' in body) expect(body.results.length, url).toBeGreaterThan(0);
    }
  });
});
