// Every fenced block of the README and docs/ names the test that runs it (`<!-- test: runner -->`
// on the line before it), and that test reads the blocks of that runner; every relative link
// leads to a page and a heading that exist; the README stays a guide.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { at, docBlocks, docPages, docText, ROOT } from './doc-blocks.ts';

/** Each runner, and the test file that runs its blocks. */
const RUNNERS: Record<string, string> = {
  site: 'test/docs/site-walkthrough.test.ts',
  'js-api': 'test/docs/site-walkthrough.test.ts',
  'cjs-api': 'test/docs/site-walkthrough.test.ts',
  'process-manager': 'test/docs/site-walkthrough.test.ts',
  curl: 'test/package-readme.test.ts',
  answer: 'test/package-readme.test.ts',
  upcoming: 'test/ordering-search.test.ts',
  'access-log': 'test/package-readme.test.ts',
  content: 'test/docs/content-examples.test.ts',
  'content-broken': 'test/docs/content-examples.test.ts',
  'check-output': 'test/docs/content-examples.test.ts',
  nginx: 'test/nginx.test.ts',
  'nginx-cache': 'test/nginx.test.ts',
  vcl: 'src/deploy/routing.test.ts',
  'nginx-replicas': 'test/replicas.test.ts',
  'browser-autocomplete': 'test/docs/browser-snippets.test.ts',
  minisearch: 'test/minisearch.test.ts',
  'readyz-remote': 'test/docs/remote-readyz.test.ts',
};

/** The README's section for the developers of aula itself: its commands are what CI runs. */
const SETUP = '## Set up (this repository)';

function inSetup(page: string, line: number): boolean {
  if (page !== 'README.md') return false;
  const lines = docText(page).split('\n');
  const start = lines.indexOf(SETUP);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return start >= 0 && line > start && line < end;
}

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('the README and docs/', () => {
  it('name, before each block, the test that runs it', () => {
    const unnamed: string[] = [];
    for (const b of docBlocks()) {
      if (inSetup(b.page, b.line)) continue;
      if (b.runner === 'none') {
        // not a command or a snippet: say what it is
        if (b.args.length === 0) unnamed.push(`${at(b)}: \`none\` without saying what the block is`);
      } else if (b.runner === null || !(b.runner in RUNNERS)) unnamed.push(`${at(b)}: ${b.runner ?? 'no <!-- test: … --> line'}`);
    }
    expect(unnamed).toEqual([]);
  });

  it.each(Object.entries(RUNNERS))('%s: %s reads its blocks', (runner, file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toContain(`blocksFor('${runner}'`);
    expect(docBlocks().filter((b) => b.runner === runner).length, runner).toBeGreaterThan(0);
  });

  it('link to pages and headings that exist', () => {
    const broken: string[] = [];
    for (const page of docPages()) {
      const text = docText(page).replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#');
        const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path);
        if (!existsSync(file)) {
          broken.push(`${page}: ${target}`);
          continue;
        }
        if (anchor === undefined || !file.endsWith('.md')) continue;
        const headings = [...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]));
        if (!headings.includes(anchor)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keep the README a guide: at most 300 lines, linking every page of docs/', () => {
    const readme = docText('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    for (const page of docPages().slice(1)) {
      if (page === 'docs/scaling.md') continue; // linked from docs/performance.md
      expect(readme, page).toContain(`](${page})`);
    }
  });
});
