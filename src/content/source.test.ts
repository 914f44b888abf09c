import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import type { Issue } from './problems.ts';
import { BEYOND_FULL_READER, charactersParsedForPositions, locateIssues, MOST_FULL_TOKENS, readData } from './source.ts';
import { checkValue, MAX_DEPTH } from './value-limits.ts';

const read = (file: string, text: string) => readData(file, { text, lineOffset: 0 });

describe('readData', () => {
  it('reads YAML and JSON to the same values', () => {
    expect(read('a.yaml', 'id: 1\nlist: [a, b]\n')).toMatchObject({ ok: true, value: { id: 1, list: ['a', 'b'] } });
    expect(read('a.json', '{"id": 1, "list": ["a", "b"]}')).toMatchObject({ ok: true, value: { id: 1, list: ['a', 'b'] } });
    // Outside the fast reader's subset: anchors, folded scalars.
    expect(read('a.yml', 'a: &x 1\nb: *x\nc: >\n  folded\n  text\n')).toMatchObject({ ok: true, value: { a: 1, b: 1, c: 'folded text\n' } });
  });

  it('gives YAML syntax errors their position, offset by the lines before the YAML', () => {
    const r = readData('events/a.md', { text: 'id: 1\ntitle: a: b\n', lineOffset: 1 });
    expect(!r.ok && r.problems).toEqual([
      { file: 'events/a.md', line: 3, column: 8, key: '', message: 'invalid YAML: Nested mappings are not allowed in compact mappings' },
    ]);
  });

  it('tells the first syntax error of a file, not what the parser reads after it, and the repeated keys before it', () => {
    // the second line alone reads as two errors to the parser, the fourth as more
    const r = readData('events/a.md', { text: 'id: 1\nid: 2\ntitle: Kurs: [offen\n  bad indent: x\n', lineOffset: 1 });
    expect(!r.ok && r.problems.map((p) => [p.line, p.message])).toEqual([
      [3, 'invalid YAML: Map keys must be unique'],
      [4, 'invalid YAML: Nested mappings are not allowed in compact mappings'],
    ]);
  });

  it('gives JSON syntax errors a position', () => {
    const r = read('events/a.json', '{\n  "id": 1\n  "title": 2}\n');
    expect(!r.ok && r.problems).toEqual([
      { file: 'events/a.json', line: 3, column: 3, key: '', message: "invalid JSON: Expected ',' or '}' after property value" },
    ]);
    // Without a position from JSON.parse, yaml's is used.
    const unclosed = read('a.json', '{"a": @}');
    expect(!unclosed.ok && unclosed.problems[0]).toMatchObject({ line: 1, column: 7, message: expect.stringMatching(/^invalid JSON: /) });
  });

  it('refuses JSON that only YAML accepts', () => {
    expect(read('a.json', '{"a": 1,}')).toEqual({
      ok: false,
      problems: [{ file: 'a.json', line: 1, column: 9, key: '', message: 'invalid JSON: Expected double-quoted property name' }],
    });
    expect(read('a.json', '{"a": }')).toEqual({ ok: false, problems: [{ file: 'a.json', line: 1, column: 1, key: '', message: "invalid JSON: Unexpected token '}'" }] });
    // The same text is fine as YAML.
    expect(read('a.yaml', '{"a": 1,}')).toMatchObject({ ok: true, value: { a: 1 } });
  });

  it('reports a key repeated in JSON, which JSON.parse would let pass', () => {
    const r = read('a.json', '{"id": 1,\n "id": 2}');
    expect(!r.ok && r.problems).toEqual([{ file: 'a.json', line: 2, column: 2, key: '', message: 'invalid JSON: Map keys must be unique' }]);
    // The same key in two objects is fine.
    expect(read('a.json', '[{"id": 1}, {"id": 2, "x": "\\"id\\": 3"}]')).toMatchObject({ ok: true });
  });

  it('reports an alias bomb instead of expanding it', () => {
    const bomb = ['a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]'];
    const r = read('a.yaml', `${bomb.join('\n')}\n`);
    expect(!r.ok && r.problems).toEqual([
      { file: 'a.yaml', line: 1, column: 1, key: '', message: 'invalid YAML: Excessive alias count indicates a resource exhaustion attack' },
    ]);
  });

  it('finds values nested too deep as checkValue does, whichever reader read them', () => {
    // mappings in mappings, a list of lists, and a flow list as the deepest level
    const nested = (levels: number) => Array.from({ length: levels }, (_, i) => `${' '.repeat(2 * i)}a:`).join('\n') + ' 1\n';
    const lists = (levels: number) => `${'- '.repeat(levels)}x\n`;
    const flow = (levels: number) => Array.from({ length: levels - 1 }, (_, i) => `${' '.repeat(2 * i)}a:`).join('\n') + ' [1]\n';
    for (const make of [nested, lists, flow]) {
      for (const levels of [1, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1]) {
        const text = make(levels);
        const read = readData('events/deep.yaml', { text, lineOffset: 0 });
        if (!read.ok) throw new Error(`not read: ${text}`);
        expect(read.limits.tooDeep, text).toStrictEqual(checkValue(read.value).tooDeep);
        expect(read.limits.tooDeep === null, text).toBe(levels <= MAX_DEPTH);
        expect(read.limits.unsafe).toStrictEqual([]);
      }
    }
  });

  it('reports a key repeated in YAML', () => {
    const r = read('a.yaml', 'id: 1\nid: 2\n');
    expect(!r.ok && r.problems).toEqual([{ file: 'a.yaml', line: 2, column: 1, key: '', message: 'invalid YAML: Map keys must be unique' }]);
  });

  it("reports repeated keys where yaml's own check does, in any mapping the subset reader leaves to yaml", () => {
    // (a list or mapping as a key is aula's problem, not yaml's: the test below)
    const key = fc.constantFrom('a', 'b', '1', '"1"', "'a'", '~', 'null', '.nan', '0x1', '&x a', '*x', '? a', '?', '', '# c\n', '!!str a');
    const mapping = fc.oneof(
      fc.array(key, { minLength: 1, maxLength: 6 }).map((keys) => `{${keys.map((k, i) => `${k.startsWith('?') ? k.slice(2) : k}: ${i}`).join(', ')}}`),
      fc.array(key, { minLength: 1, maxLength: 6 }).map((keys) => `${keys.map((k, i) => `${k}: ${i}`).join('\n')}\nz: &x [1]\n`),
    );
    fc.assert(
      fc.property(mapping, (text) => {
        // (`? a: 0` on a line of its own is a mapping as a key: the test below)
        fc.pre(!/^\? a:/m.test(text));
        const lines = new LineCounter();
        const own = parseDocument(text, { lineCounter: lines, prettyErrors: false, intAsBigInt: true });
        const r = read('a.yaml', text);
        const found = own.errors.map((e) => ({ ...lines.linePos(e.pos[0]), message: `invalid YAML: ${e.message}`, syntax: e.code !== 'DUPLICATE_KEY' }));
        // up to the first syntax error: what follows it is its consequence
        const firstSyntax = found.findIndex((e) => e.syntax);
        const expected = (firstSyntax >= 0 ? found.slice(0, firstSyntax + 1) : found).map(({ syntax, ...e }) => e);
        // both ways: a problem the library finds is found, and none it does not find
        expect(r.ok ? [] : r.problems.map((p) => ({ line: p.line, col: p.column, message: p.message })), text).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a list or a mapping as a key, written or aliased, where yaml would make it text with a warning on stderr', () => {
    const problem = (text: string) => {
      const r = read('a.yaml', text);
      return !r.ok && r.problems.map((p) => `${p.line}:${p.column} ${p.message}`);
    };
    const message = 'invalid YAML: a key must be text or a number, not a list or a mapping';
    expect(problem('extra: {? [a, b] : c}\n')).toEqual([`1:11 ${message}`]);
    expect(problem('id: 1\n? {a: 1}\n: x\n')).toEqual([`2:3 ${message}`]);
    expect(problem('l: &l [1]\nm: {*l : 2}\n')).toEqual([`2:5 ${message}`]);
    // an alias of a scalar names a key as the scalar does
    expect(read('a.yaml', 'k: &k name\nm: {*k : 2}\n')).toMatchObject({ ok: true, value: { k: 'name', m: { name: 2 } } });
  });

  it('names a second document and a %YAML 1.1 directive in its own words', () => {
    const r = read('a.yaml', 'id: 1\n---\nid: 2\n');
    expect(!r.ok && r.problems.map((p) => p.message)).toEqual(['invalid YAML: a file holds one YAML document, and this one has another after a `---` or `...` line: make them one list, or split the file']);
    const v = read('a.yaml', '%YAML 1.1\n---\nregister: on\n');
    expect(!v.ok && v.problems).toEqual([{ file: 'a.yaml', line: 1, column: 1, key: '', message: "invalid YAML: aula reads YAML 1.2's core schema: remove the %YAML 1.1 directive" }]);
    expect(read('a.yaml', '%YAML 1.2\n---\nregister: on\n')).toMatchObject({ ok: true, value: { register: 'on' } });
  });

  it('reads a mapping of 40,000 keys in one pass, not comparing each key with those before', () => {
    const text = `{${Array.from({ length: 40_000 }, (_, i) => `k${i}: ${i}`).join(', ')}, k7: x}`;
    const started = process.cpuUsage();
    const r = read('a.yaml', text);
    const used = process.cpuUsage(started);
    expect(!r.ok && r.problems.map((p) => p.message)).toEqual(['invalid YAML: Map keys must be unique']);
    // CPU, not wall time, and generous: far under what comparing each key with those before it costs
    expect((used.user + used.system) / 1000).toBeLessThan(5000);
  });

  it('tells twenty problems of a file, and counts the rest', () => {
    const r = read('a.yaml', `x: 1\nkeywords: {${'a: 1, '.repeat(1000)}b: 2}\n`);
    expect(!r.ok && r.problems.length).toBe(21);
    expect(!r.ok && r.problems[19]).toMatchObject({ line: 2, column: 132, message: 'invalid YAML: Map keys must be unique' });
    expect(!r.ok && r.problems[20]).toMatchObject({ line: 2, column: 138, message: 'invalid YAML: and 979 more problems from here on, not shown: correct those above first' });
  });

  it('refuses a file the fast reader declines and the full one would take too much memory for, where the fast reader stops', () => {
    // an unclosed `[` over a megabyte of items: `yaml` would hold ~400 bytes a token of it
    const head = 'id: 1\ntitle: t\n';
    const r = readData('events/x.md', { text: `${head}keywords: [${'1,'.repeat(MOST_FULL_TOKENS / 2 + 1)}1\n`, lineOffset: 1 });
    expect(!r.ok && r.problems).toEqual([{ file: 'events/x.md', line: 4, column: 1, key: '', message: BEYOND_FULL_READER }]);
    // a tab sends the whole file to `yaml`: the place shown is the tab's
    const tabbed = read('a.yaml', `${head}note: "a\tb"\nlist:\n${'  - {a: 1}\n'.repeat(MOST_FULL_TOKENS / 8)}`);
    expect(!tabbed.ok && tabbed.problems.map((p) => [p.line, p.column])).toEqual([[3, 9]]);
    // the same items closed are plain YAML: read at once, whatever their number
    expect(read('a.yaml', `${head}keywords: [${'1,'.repeat(MOST_FULL_TOKENS / 2 + 1)}1]\n`)).toMatchObject({ ok: true });
  });

  it('reads CRLF line ends as YAML does', () => {
    const texts = ['a: |\n  x\n  y\nb: c \n', 'id: 1\n# note\nlist:\n  - a\n  - [b, "c d"]\nx: |-\n  p\n\n  q\n', 'a: 1\n- b\n'];
    for (const text of texts) {
      const crlf = read('a.yaml', text.replace(/\n/g, '\r\n'));
      const lf = read('a.yaml', text);
      expect(crlf.ok ? crlf.value : crlf.problems.map((p) => [p.line, p.column])).toEqual(lf.ok ? lf.value : lf.problems.map((p) => [p.line, p.column]));
    }
  });

  it('refuses a file of more aliases times anchors than yaml resolves in time, and only such a file', () => {
    const pairs = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: &x${i} v\nb${i}: *x${i}`).join('\n');
    expect(read('a.yaml', pairs(5_000))).toMatchObject({ ok: true });
    const r = read('a.yaml', pairs(5_001));
    expect(!r.ok && r.problems).toEqual([
      { file: 'a.yaml', line: 2, column: 5, key: '', message: 'invalid YAML: its 5001 aliases would each be looked up among its 10002 anchors and aliases, more than 50,000,000 steps; write the values out, or split the file' },
    ]);
    // anchors without aliases cost the library nothing to resolve
    expect(read('a.yaml', Array.from({ length: 20_000 }, (_, i) => `a${i}: &x${i} v`).join('\n'))).toMatchObject({ ok: true });
  });
});

describe('locateIssues', () => {
  const issue = (item: number | null, key: Issue['key'], at: Issue['at']): Issue => ({ item, key, at, message: 'm' });

  it('points at a key, its value, or the object that lacks it', () => {
    const text = 'x: 0\nlist:\n  - a: 1\n    related:\n      - {id: 5, media: 7}\n';
    const where = (i: Issue) => {
      const [p] = locateIssues('f.yaml', text, [i]);
      return `${p.line}:${p.column} ${p.key}`;
    };
    expect(where(issue(null, ['list'], 'key'))).toBe('2:1 list');
    expect(where(issue(null, ['list', 0, 'a'], 'value'))).toBe('3:8 list[0].a');
    expect(where(issue(null, ['list', 0, 'related', 0, 'media'], 'value'))).toBe('5:24 list[0].related[0].media');
    expect(where(issue(null, ['list', 0, 'missing'], 'object'))).toBe('3:5 list[0].missing');
    expect(where(issue(null, ['nope', 3], 'value'))).toBe('1:1 nope[3]');
  });

  it('points into the item of a list file', () => {
    const [p] = locateIssues('f.yaml', '- id: 1\n- id: 2\n  title: x\n', [issue(1, ['title'], 'value')]);
    expect(p).toEqual({ file: 'f.yaml', line: 3, column: 10, key: 'title', message: 'm' });
  });

  it('points at the key of an empty value', () => {
    const [p] = locateIssues('f.yaml', 'a: 1\nb:\n', [issue(null, ['b'], 'value')]);
    expect([p.line, p.column]).toEqual([2, 1]);
  });

  it('places the problems of a list over 1 MiB by parsing only the items they are in, wherever they are', () => {
    // items of every shape whose lines could be taken for an item's start: quoted and block
    // scalars, flow collections, nested lists, comments, CRLF, anchors named across items
    const shapes = [
      (i: number) => `- id: ${i}\n  title: "a\n    - quoted"\n`,
      (i: number) => `- id: ${i}\n  body: |\n    x\n\n    - not an item\n  b: 2\n`,
      (i: number) => `# - a comment ${i}\n- id: ${i}\n  c: *x0\n`,
      (i: number) => `- id: ${i}\n  tags: [1,\n    2]\n`,
      (i: number) => `- - ${i}\n  - 2\n`,
      (i: number) => `- id: ${i}\n  folded: >\n   one\n   - two\n`,
      (i: number) => `-\n  id: ${i}\n  name: Müller 😀\n`,
    ];
    const items = [`- &x0\n  id: 0\n`];
    for (let i = 1, length = 0; length < 1.2 * (1 << 20); i++) length += items[items.push(shapes[i % shapes.length](i)) - 1].length;
    const last = items.length - 1;
    const issues = [issue(3, ['title'], 'value'), issue(1000, ['id'], 'key'), issue(last - 1, ['missing'], 'object'), issue(last, ['folded'], 'value'), issue(last, [1], 'value')];
    // item 1000's `id:` key, at column 3 of its line
    const lineOf1000 = items.slice(0, 1000).join('').split('\n').length + items[1000].split('\n').findIndex((l) => l.includes('id:'));
    for (const newline of ['\n', '\r\n']) {
      const text = items.join('').replaceAll('\n', newline);
      const before = charactersParsedForPositions();
      const apart = locateIssues('f.yaml', text, issues);
      // a few items parsed, not the 1.2 MiB (the lexer that finds them reads without parsing)
      expect(charactersParsedForPositions() - before).toBeLessThan(1000);
      expect(apart[1]).toMatchObject({ line: lineOf1000, column: 3, key: 'id' });
      if (newline === '\n') continue;
      // the same places as the whole file parsed (an item that is not there makes it parse whole)
      const whole = locateIssues('f.yaml', text, [...issues, issue(10 * last, [], 'object')]).slice(0, issues.length);
      expect(charactersParsedForPositions() - before).toBeGreaterThan(text.length);
      expect(apart).toEqual(whole);
    }
  });

  it('counts lines of the whole Markdown file', () => {
    const [p] = locateIssues('events/a.md', '---\nid: 1\ntitle: 2\n---\nbody\n', [issue(null, ['title'], 'value')]);
    expect([p.line, p.column]).toEqual([3, 8]);
  });
});

describe('the yaml library', () => {
  it('is loaded only once a file needs it', () => {
    // a process of its own (the compiled module): this one may have loaded it for other tests
    const program = `
      const { readData, locateIssues } = await import(${JSON.stringify(new URL('../../lib/content/source.js', import.meta.url).href)});
      const { createRequire } = await import('node:module');
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('/node_modules/yaml/'));
      const seen = [];
      readData('events/a.yaml', { text: 'id: 1\\ntitle: plain\\n', lineOffset: 0 });
      seen.push(loaded());
      // an anchor: outside the subset reader
      const value = readData('events/b.yaml', { text: 'a: &x 1\\nb: *x\\n', lineOffset: 0 });
      seen.push(loaded(), value.ok && value.value.b);
      process.stdout.write(JSON.stringify(seen));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([false, true, 1]);
  });
});
