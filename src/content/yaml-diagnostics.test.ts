import { describe, expect, it } from 'vitest';
import { parseEventFile } from './events.ts';
import { NOT_FINITE } from './value-limits.ts';

const EVENT = 'id: 1\ntitle: A\nstart: 2026-05-12T18:00\nend: 2026-05-12T20:00\nlast_modified: 2026-05-01\n';
const VIE = 'Europe/Vienna';

/** The problems of an event file, as `file:line:column key: message` lines. */
function problems(file: string, text: string): string[] {
  return parseEventFile(file, text, VIE).problems.map((p) => `${p.line}:${p.column} ${p.key}: ${p.message}`);
}

describe('values JSON cannot hold', () => {
  it('refuses .nan, .inf and numbers beyond a double, in YAML and JSON, at their key', () => {
    expect(problems('events/a.yaml', `${EVENT}keywords: .nan\n`)).toEqual([`6:11 keywords: ${NOT_FINITE}`]);
    expect(problems('events/a.yaml', `${EVENT}keywords: [1, -.inf, 1e400]\n`)).toEqual([
      `6:15 keywords[1]: ${NOT_FINITE}`,
      `6:22 keywords[2]: ${NOT_FINITE}`,
    ]);
    const json = '{"id": 1, "title": "A", "start": "2026-05-12T18:00", "end": "2026-05-12T20:00", "last_modified": "2026-05-01",\n "description": {"x": -1e999}}\n';
    expect(problems('events/a.json', json)).toEqual([`2:23 description.x: ${NOT_FINITE}`]);
    // quoted, it is the text
    expect(parseEventFile('events/a.yaml', `${EVENT}keywords: ".nan"\n`, VIE)).toMatchObject({ problems: [], records: [{ value: { keywords: '.nan' } }] });
  });

  it("refuses the values of YAML 1.1's tags beyond the core schema, which JSON would turn into others", () => {
    const refused = (value: string) => problems('events/a.yaml', `${EVENT}keywords: ${value}\n`);
    expect(refused('!!binary aGVsbG8=')).toEqual([expect.stringMatching(/^6:20 keywords: a !!binary value, which JSON cannot hold/)]);
    expect(refused('!!set {a, b}')).toEqual([expect.stringMatching(/^6:17 keywords: a !!set, which JSON cannot hold; write a list$/)]);
    expect(refused('!!omap [a: 1]')).toEqual([expect.stringMatching(/^6:18 keywords: an !!omap, which JSON cannot hold/)]);
    expect(refused('!!timestamp 2026-01-01 10:00:00')).toEqual([expect.stringMatching(/^6:23 keywords: a !!timestamp, which reads a time without an offset in UTC/)]);
    // also where a timestamp is expected: the tag would read a local time in UTC
    const start = problems('events/a.yaml', EVENT.replace('start: 2026-05-12T18:00', 'start: !!timestamp 2026-05-12 18:00:00'));
    expect(start).toEqual([expect.stringMatching(/^3:20 start: a !!timestamp/)]);
    // deep inside a value, each at its path
    expect(refused('[{x: !!binary aGk=}, !!set {a}]')).toEqual([
      expect.stringMatching(/^6:25 keywords\[0\]\.x: a !!binary value/),
      expect.stringMatching(/^6:38 keywords\[1\]: a !!set/),
    ]);
  });

  it('refuses a tag yaml cannot apply (an unknown one, or a core tag its value does not fit), which it would leave as text', () => {
    const refused = (value: string) => problems('events/a.yaml', `${EVENT}keywords: ${value}\n`);
    const read = "aula reads YAML 1.2's core tags (!!str, !!int, !!float, !!bool, !!null, !!seq, !!map), each where its value fits; write the value without the tag";
    expect(refused('!foo bar')).toEqual([`6:11 : invalid YAML: unknown tag !foo: ${read}`]);
    expect(refused('!!float 1')).toEqual([`6:11 : invalid YAML: the tag !!float does not fit its value: ${read}`]);
    expect(refused('!!null x')).toEqual([`6:11 : invalid YAML: the tag !!null does not fit its value: ${read}`]);
    expect(refused('!!seq {a: 1}')).toEqual([`6:11 : invalid YAML: the tag !!seq does not fit its value: ${read}`]);
  });

  it('reads the core tags where their value fits, as YAML 1.2 says', () => {
    const read = (value: string) => parseEventFile('events/a.yaml', `${EVENT}keywords: ${value}\n`, VIE);
    expect(read('!!str 12')).toMatchObject({ problems: [], records: [{ value: { keywords: '12' } }] });
    expect(read('!!int "12"')).toMatchObject({ problems: [], records: [{ value: { keywords: 12 } }] });
    expect(read('!!float 1.5')).toMatchObject({ problems: [], records: [{ value: { keywords: 1.5 } }] });
    expect(read('!!seq [a]')).toMatchObject({ problems: [], records: [{ value: { keywords: ['a'] } }] });
  });
});

describe('a quote that never closes', () => {
  it('is reported where it opens, not past the last line', () => {
    const unclosed = EVENT.replace('title: A', 'title: "A');
    expect(problems('events/a.yaml', unclosed)).toEqual(['2:8 : invalid YAML: Missing closing "quote']);
    expect(problems('events/a.yaml', EVENT.replace('title: A', "title: 'A"))).toEqual(["2:8 : invalid YAML: Missing closing 'quote"]);
    // in a list, and in a Markdown file's front matter (lines counted from the file's first)
    expect(problems('events/a.yaml', `- id: 1\n- id: 2\n  title: "B\n- id: 3\n`)).toEqual(['3:10 : invalid YAML: Missing closing "quote']);
    expect(problems('events/a.md', `---\n${unclosed}---\nbody\n`)).toEqual(['3:8 : invalid YAML: Missing closing "quote']);
  });

  it('in JSON, and any error past the text, is on the last line', () => {
    expect(problems('events/a.json', '{"id": 1, "title": "A"\n\n')).toEqual(["1:23 : invalid JSON: Expected ',' or '}' after property value"]);
    expect(problems('events/a.json', '{"id": 1, "title": "A')).toEqual(['1:22 : invalid JSON: Unterminated string']);
  });
});
