// Hostile shapes of content values: nesting thousands of levels deep (JSON, YAML, front matter),
// Markdown nested thousands deep, huge bodies, integers beyond 2^53-1. Each ends as a
// `file:line:column key: message` problem (or bounded output), never a stack overflow or a hang.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProblem, loadContent } from '../../src/content/index.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { aula } from '../aula-cli.ts';
import { apiOver, buildOk, cpuMs, removeDir, tempDir, writeContent } from '../helpers.ts';

const HEAD = 'title: Deep\nstart: 2025-03-01T10:00\nend: 2025-03-01T11:00\nlast_modified: 2025-01-01\n';
const JSON_HEAD = '"title": "Deep", "start": "2025-03-01T10:00", "end": "2025-03-01T11:00", "last_modified": "2025-01-01"';
const TOO_DEEP = /nested deeper than 64 levels/;

let root: string;
let n = 0;
beforeAll(() => {
  root = tempDir('aula-limits-');
});
afterAll(() => removeDir(root));

/** Loads `files` with the fixture's; `ms`: the CPU time the load took (a bound on its work that holds on a busy machine). */
async function load(files: Record<string, string>) {
  const dir = writeContent(join(root, `c${n++}`), { ...FIXTURE_FILES, ...files });
  const { result, ms } = await cpuMs(() => loadContent(dir));
  return { ...result, lines: result.problems.map(formatProblem), ms, dir };
}

const nestedJson = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
function nestedYamlBlock(depth: number): string {
  let y = 'keywords:\n';
  for (let i = 1; i < depth; i++) y += `${' '.repeat(i)}a:\n`;
  return `${y}${' '.repeat(depth)}b: 1\n`;
}

describe('nesting depth', () => {
  it('JSON nested 5,000 levels: a problem with file:line:column, via the CLI as one line each, no stack trace', () => {
    const dir = writeContent(join(root, 'cli-deep'), { ...FIXTURE_FILES, 'events/deep.json': `{"id": 1, ${JSON_HEAD}, "keywords": ${nestedJson(5_000)}}` });
    const r = aula(['build', '--content', dir, '--out', join(root, 'cli-deep-dist')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^events\/deep\.json:1:\d+ keywords(\[0\]){63}: nested deeper than 64 levels/m);
    expect(r.err).not.toMatch(/RangeError|Maximum call stack|at .*\.ts:\d+/);
    expect(r.err.trimEnd().split('\n')).toHaveLength(2); // the problem and the summary
  });

  it('a megabyte of brackets in JSON and in YAML, and YAML block nesting 3,000 deep, end promptly as problems', async () => {
    const { lines, ms } = await load({
      'events/brackets.json': `{"id": 1, ${JSON_HEAD}, "keywords": ${'['.repeat(1_000_000)}`,
      'events/brackets.yaml': `id: 2\n${HEAD}keywords: ${'['.repeat(1_000_000)}\n`,
      'events/block.yaml': `id: 3\n${HEAD}${nestedYamlBlock(3_000)}`,
      'events/front.md': `---\nid: 4\n${HEAD}keywords: ${nestedJson(3_000)}\n---\nBody\n`,
    });
    expect(ms).toBeLessThan(10_000);
    const of = (file: string) => lines.filter((l) => l.startsWith(`${file}:`));
    expect(of('events/brackets.json')).toEqual([expect.stringMatching(TOO_DEEP)]);
    expect(of('events/brackets.yaml')).toEqual([expect.stringMatching(/^events\/brackets\.yaml:6:\d+ nested deeper than 64 levels/)]);
    expect(of('events/block.yaml')).toEqual([expect.stringMatching(/^events\/block\.yaml:\d+:\d+ (keywords[.\w]*: )?nested deeper than 64 levels/)]);
    // front matter: the line counts from the top of the file, past the opening ---
    expect(of('events/front.md')).toEqual([expect.stringMatching(/^events\/front\.md:7:\d+ (keywords[\[\]\d]*: )?nested deeper than 64 levels/)]);
  });

  it('64 levels are allowed, 65 are not (the event object counts as one)', async () => {
    const ok = await load({ 'events/e.json': `{"id": 1, ${JSON_HEAD}, "keywords": ${nestedJson(63)}}` });
    expect(ok.lines).toEqual([]);
    const deep = await load({ 'events/e.json': `{"id": 1, ${JSON_HEAD}, "keywords": ${nestedJson(64)}}` });
    expect(deep.lines).toEqual([expect.stringMatching(/^events\/e\.json:1:\d+ keywords(\[0\]){63}: nested deeper than 64 levels/)]);
  });

  it('the deepest value allowed stays a bounded page: JSON and the browsable HTML', async () => {
    // 63 levels with 1,000 leaves at the bottom: the worst shape the limit lets through
    const keywords = `${'['.repeat(62)}[${Array.from({ length: 1_000 }, (_, i) => i).join(',')}]${']'.repeat(62)}`;
    const source = `{"id": 1, ${JSON_HEAD}, "keywords": ${keywords}}`;
    const content = writeContent(join(root, 'deep-page'), { ...FIXTURE_FILES, 'events/deep.json': source });
    await buildOk({ content, out: join(root, 'deep-page-dist') });
    const ask = apiOver(join(root, 'deep-page-dist'));
    const json = ask('/v1/cms/event/1/');
    expect(json.status).toBe(200);
    expect(json.text.length).toBeLessThan(20 * source.length);
    const html = ask('/v1/cms/event/1/', { headers: { accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(html.text.length).toBeLessThan(2_000_000);
  });

  it('Markdown nested past 20 levels (1,500 deep too) is a problem at the body line where markdown-it would drop the rest, not text lost', async () => {
    const quotes = `${'> '.repeat(3_000)}deep quote\n`;
    // (1,500 levels of indented lines: 2.3 M characters, within the 4 Mi a body may have)
    const lists = Array.from({ length: 1_500 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n');
    const quoteLines = Array.from({ length: 1_500 }, (_, i) => `${'>'.repeat(i + 1)} x`).join('\n');
    // a list counts two levels (itself and its item): ten lists deep, markdown-it dropped "level 9" and all after it
    const list = (depth: number) => `Intro.\n\n${Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- level ${i}\n`).join('')}\nAfter the list.\n`;
    const { lines } = await load({
      'events/q.md': `---\nid: 1\n${HEAD}---\n${quotes}`,
      'events/l.md': `---\nid: 2\n${HEAD}---\n${lists}\n`,
      'events/ql.md': `---\nid: 3\n${HEAD}---\n${quoteLines}\n`,
      'events/ten.md': `---\nid: 4\n${HEAD}---\n${list(10)}`,
    });
    const at = (line: number) => `at line ${line} of the body, blockquotes and lists nest deeper than Markdown is read (at most 19 levels, a list counting two: itself and its item), and the text from there on would be dropped; nest less`;
    expect(lines).toEqual([
      `events/l.md:17:1 body: ${at(10)}`,
      `events/q.md:8:1 body: ${at(1)}`,
      `events/ql.md:27:1 body: ${at(20)}`,
      `events/ten.md:19:1 body: ${at(12)}`,
    ]);
    // 19 blockquotes inside each other are read, as the message says
    const nine = await load({ 'events/nine.md': `---\nid: 5\n${HEAD}---\n${list(9)}`, 'events/q19.md': `---\nid: 6\n${HEAD}---\n${'>'.repeat(19)} x\n` });
    expect(nine.lines).toEqual([]);
    expect(nine.model!.events[0].body).toContain('After the list.');
  });

  it("a body beyond 4 Mi characters of HTML or of Markdown is a problem at the body's first line", async () => {
    const { lines } = await load({
      // short paragraphs: 3.6 M characters of Markdown, three times as many of HTML
      'events/big.md': `---\nid: 1\n${HEAD}---\n${'a\n\n'.repeat(1_200_000)}`,
      'events/long.md': `---\nid: 2\n${HEAD}---\n${'word '.repeat(860_000)}\n`,
    });
    expect(lines).toEqual([
      expect.stringMatching(/^events\/big\.md:8:1 body: the body is \d+ characters of HTML; at most 4194304 are allowed$/),
      'events/long.md:8:1 body: the body is 4300001 characters of Markdown; at most 4194304 are allowed',
    ]);
  });

  it('a body of more emphasis and link marks than markdown-it pairs in bounded memory is a problem, not gigabytes', async () => {
    const { lines } = await load({ 'events/marks.md': `---\nid: 1\n${HEAD}---\n${'*a **a [b '.repeat(90_000)}\n` });
    expect(lines).toEqual(['events/marks.md:8:1 body: the body has 360000 emphasis, link, code and HTML marks (* _ [ ] ` <); Markdown is read with at most 262144: split the text, or write it with fewer']);
  });
});

describe('unknown keys', () => {
  it('a megabyte-long unknown key in JSON and in YAML ends promptly as a problem, the key cut to 80 characters', async () => {
    // The did-you-mean hint measured it against every known key with a full edit-distance table:
    // 16 s and ~1 GB at 1 MB, 69 s and 3 GB at 4 MB.
    const { lines, ms } = await load({
      'events/long-key.json': `{"id": 1, ${JSON_HEAD}, "${'k'.repeat(1_000_000)}": 1}`,
      'events/long-key.yaml': `id: 2\n${HEAD}${'q'.repeat(1_000_000)}: 1\n`,
    });
    expect(ms).toBeLessThan(10_000);
    expect(lines.filter((l) => l.startsWith('events/long-key'))).toEqual([
      expect.stringMatching(new RegExp(`^events/long-key\\.json:1:\\d+ k{77}\\.\\.\\.: unknown key$`)),
      `events/long-key.yaml:6:1 ${'q'.repeat(77)}...: unknown key`,
    ]);
    // a near miss of a known key still gets its hint
    const near = await load({ 'events/near.yaml': `id: 3\n${HEAD}organiser: X\n` });
    expect(near.lines).toContain('events/near.yaml:6:1 organiser: unknown key (did you mean "organizer"?)');
  });
});

describe('YAML aliases', () => {
  it('repeating a large value is a problem at the first alias; reusing a value is fine', async () => {
    // `yaml` bounds how many aliases there are, not what they repeat: 1 MB aliased 99 times was
    // 99 MB of values (seven such files: a 1.4 GB dist, 3.5 GB of memory, from 7 MB of content)
    const bomb = `---\nid: 21\n${HEAD}description: &a "${'A'.repeat(1_000_000)}"\nkeywords: [${Array(99).fill('*a').join(', ')}]\n---\nBody\n`;
    const { lines, ms, model } = await load({
      'events/bomb.md': bomb,
      'events/reuse.yaml': `id: 22\n${HEAD}organizer: &o Ärztekammer für Wien\nlocation: *o\nkeywords: [&k fortbildung, *k]\n`,
    });
    expect(ms).toBeLessThan(10_000);
    expect(model).toBeNull();
    expect(lines).toEqual([
      'events/bomb.md:8:12 invalid YAML: its aliases (*name) expand 1.0 MB of text to 100.0 MB of values, more than 4 times the text and 1 MiB; write the values out, or alias less',
    ]);
    const fine = await load({ 'events/reuse.yaml': `id: 22\n${HEAD}organizer: &o Ärztekammer für Wien\nlocation: *o\nkeywords: [&k fortbildung, *k]\n` });
    expect(fine.lines).toEqual([]);
    expect(fine.model!.events.find((e) => e.id === 22)).toMatchObject({ organizer: 'Ärztekammer für Wien', location: 'Ärztekammer für Wien' });
  });
});

describe('integers beyond 2^53-1', () => {
  it('are reported as written (…993, not …992) in YAML, JSON, front matter and list files', async () => {
    const { lines } = await load({
      'events/a.yaml': `id: 9007199254740993\n${HEAD}`,
      'events/b.json': `{"id": 9007199254740993, ${JSON_HEAD}}`,
      'events/c.md': `---\nid: -9007199254740995\n${HEAD}---\nBody\n`,
      'events/d.yaml': `- id: 7\n  ${HEAD.trimEnd().split('\n').join('\n  ')}\n- id: 12345678901234567890123\n  ${HEAD.trimEnd().split('\n').join('\n  ')}\n`,
      'events/e.yaml': `id: 8\n${HEAD}dfp_points: 9007199254740992\n`,
    });
    const tooLarge = (text: string) => `${text} is too large: integers must lie between -9007199254740991 and 9007199254740991 (2^53-1)`;
    expect(lines).toEqual(
      expect.arrayContaining([
        `events/a.yaml:1:5 id: ${tooLarge('9007199254740993')}`,
        `events/b.json:1:8 id: ${tooLarge('9007199254740993')}`,
        `events/c.md:2:5 id: ${tooLarge('-9007199254740995')}`,
        `events/d.yaml:6:7 id: ${tooLarge('12345678901234567890123')}`,
        `events/e.yaml:6:13 dfp_points: ${tooLarge('9007199254740992')}`,
      ]),
    );
    expect(lines.join('\n')).not.toMatch(/id: 9007199254740992/);
  });

  it('the largest safe integer is accepted', async () => {
    const { lines, model } = await load({ 'events/a.yaml': `id: 9007199254740991\n${HEAD}` });
    expect(lines).toEqual([]);
    expect(model!.events.some((e) => e.id === Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});
