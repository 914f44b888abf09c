import { describe, expect, it } from 'vitest';
import { eventsKind } from './load.ts';
import { parseEventFile } from './events.ts';
import { MOST_RECORD_PROBLEMS, problemCount, type Problem } from './problems.ts';
import { compareProblems } from './problems.ts';
import { contentFolder } from './test-folder.ts';
import type { ParsePool } from '../pipeline/load/parse-pool.ts';

// vitest runs the .ts sources, which have no worker entry: the compiled pool is the one with threads
const compiledPool = () => import(new URL('../../lib/pipeline/load/parse-pool.js', import.meta.url).href) as Promise<typeof import('../pipeline/load/parse-pool.ts')>;

/** `n` records of an event list, each with a key no event has and the lines `more`. */
const records = (n: number, ...more: string[]) => recordsFrom(100, n, ...more);
const recordsFrom = (id: number, n: number, ...more: string[]) =>
  Array.from({ length: n }, (_, i) => [`- id: ${id + i}`, ...more.map((m) => `  ${m}`), '  x: 1', ''].join('\n')).join('');

const summary = (p: Problem) => p.message.startsWith('and ');

describe('the problems of a file of many bad records', () => {
  it('are the first by position, then one line counting the rest', () => {
    // five problems a record (four keys missing, one unknown): the cap falls between records
    const few = parseEventFile('events/e.yaml', records(20), 'UTC');
    expect(few.problems).toHaveLength(MOST_RECORD_PROBLEMS);
    expect(few.problems.some(summary)).toBe(false);
    const many = parseEventFile('events/e.yaml', records(5_000), 'UTC');
    expect(many.records).toHaveLength(5_000);
    expect(many.problems).toHaveLength(MOST_RECORD_PROBLEMS + 1);
    expect(many.problems.slice(0, -1)).toEqual(few.problems);
    const last = many.problems[MOST_RECORD_PROBLEMS - 1];
    expect(many.problems.at(-1)).toEqual({ ...last, key: '', message: `and ${5_000 * 5 - MOST_RECORD_PROBLEMS} more problems in this file's records, not shown: correct those above first`, more: 5_000 * 5 - MOST_RECORD_PROBLEMS });
    expect(problemCount(many.problems)).toBe(5_000 * 5);
  });

  it('are the first by position when the cap falls inside a record, whose problems are found in another order', () => {
    // three a record, the unknown key (written first) found last: the 100th is the 34th record's first by position
    const three = (n: number) =>
      Array.from({ length: n }, (_, i) => `- x: 1\n  id: ${100 + i}\n  title: T\n  start: nope\n  end: nope\n  last_modified: 2026-01-01T00:00:00Z\n`).join('');
    const first = parseEventFile('events/e.yaml', three(33), 'UTC').problems;
    expect(first).toHaveLength(99);
    const capped = parseEventFile('events/e.yaml', three(1_000), 'UTC').problems;
    expect(capped).toHaveLength(MOST_RECORD_PROBLEMS + 1);
    expect(capped.slice(0, 99)).toEqual(first);
    expect(capped[99]).toEqual({ file: 'events/e.yaml', line: 33 * 6 + 1, column: 3, key: 'x', message: 'unknown key' });
    expect(capped[100]).toMatchObject({ line: 33 * 6 + 1, column: 3, message: `and ${3_000 - MOST_RECORD_PROBLEMS} more problems in this file's records, not shown: correct those above first` });
  });

  it('are capped for integers too large, and one mapping of many unknown keys', () => {
    const big = parseEventFile('events/b.yaml', records(500, 'n: 9007199254740993'), 'UTC').problems;
    expect(big).toHaveLength(MOST_RECORD_PROBLEMS + 1);
    expect(big[0].message).toMatch(/^9007199254740993 is too large/);
    expect(big.at(-1)!.message).toBe(`and ${500 - MOST_RECORD_PROBLEMS} more problems in this file's records, not shown: correct those above first`);
    const keys = Array.from({ length: 5_000 }, (_, i) => `k${i}: 1`).join('\n');
    const one = parseEventFile('events/one.yaml', `id: 1\n${keys}\n`, 'UTC').problems;
    expect(one).toHaveLength(MOST_RECORD_PROBLEMS + 1);
    expect(one.slice(0, -1).every((p, i) => i === 0 || compareProblems(one[i - 1], p) <= 0)).toBe(true);
    expect(one[0]).toMatchObject({ line: 1, column: 1 });
  });

  it('are placed as in a small file when only the items of a list of more than a MiB that hold them are parsed', () => {
    const few = parseEventFile('events/e.yaml', records(20), 'UTC').problems;
    // plain YAML, and an indented list (which only the `yaml` library reads: fewer, longer records)
    for (const [indent, n, title] of [['', 80_000, 'T'], ['  ', 5_000, 'T'.repeat(250)]] as const) {
      const text = `# a list\n${records(20)}${recordsFrom(1_000, n, `title: ${title}`)}`.replace(/^(?=.)/gm, indent);
      expect(text.length).toBeGreaterThan(1 << 20);
      const big = parseEventFile('events/e.yaml', text, 'UTC').problems;
      expect(big.slice(0, -1)).toEqual(few.map((p) => ({ ...p, line: p.line + 1, column: p.column + indent.length })));
      expect(big.at(-1)!.message).toBe(`and ${n * 4} more problems in this file's records, not shown: correct those above first`);
    }
  });

  it('are the same parsed on this thread and on a parse thread', async () => {
    const { ParsePool } = await compiledPool();
    const files = ['events/few.yaml', 'events/many.yaml', 'events/more.yaml'];
    const dir = await contentFolder({
      'events/many.yaml': records(3_000),
      'events/few.yaml': recordsFrom(10_000, 3, 'title: T'),
      'events/more.yaml': recordsFrom(20_000, 400, 'title: T', 'start: nope'),
    });
    const parseOn = async (threads: number) => {
      const pool = new ParsePool(dir, undefined, { threads, minFiles: 1 }) as unknown as ParsePool;
      try {
        return (await pool.parseMany(eventsKind('UTC'), 'events', 'UTC', files, new Map())).map((p) => p.problems);
      } finally {
        pool.close();
      }
    };
    const here = await parseOn(0);
    expect(await parseOn(2)).toEqual(here);
    expect(here.map((p) => p.length)).toEqual([3 * 4, MOST_RECORD_PROBLEMS + 1, MOST_RECORD_PROBLEMS + 1]);
    expect(here[1].at(-1)!.message).toBe(`and ${3_000 * 5 - MOST_RECORD_PROBLEMS} more problems in this file's records, not shown: correct those above first`);
  });
});
