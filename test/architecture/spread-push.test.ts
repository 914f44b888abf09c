// `list.push(...items)` overflows the stack once `items` is long enough (some 100k), and a list's
// length is often the input's to decide (problems, files): src appends with util/append.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { SRC } from './graph.ts';

it('no source file spreads a list into push', () => {
  const found: string[] = [];
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
      if (/\.push\(\s*\.\.\./.test(line) && !line.trimStart().startsWith('//')) found.push(`${relative(SRC, path)}:${i + 1}`);
    });
  }
  expect(found).toEqual([]);
});
