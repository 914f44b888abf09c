// Every worker thread runs a module of src/, type-checked and compiled like the rest: no program
// kept in a string (`eval: true`, a data: URL, a function's source), and every module a thread is
// started on exists as a .ts file beside its starter (src/util/start-thread.ts).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modules, SRC } from './graph.ts';

const sources = modules().map((rel) => ({ rel, text: readFileSync(join(SRC, rel), 'utf8') }));
/** The one place a data: URL starts a thread: tsx's loader, before a .ts module, from the sources only. */
const LOADER = 'util/start-thread.ts';

describe('worker threads', () => {
  it('run no program kept in a string', () => {
    const found = sources.flatMap(({ rel, text }) => [
      ...(/eval:\s*true/.test(text) ? [`${rel}: eval: true`] : []),
      ...(/\.toString\(\)\}?\)?\(/.test(text) ? [`${rel}: a function's source run as a program`] : []),
      ...(rel !== LOADER && /data:text\/javascript/.test(text) ? [`${rel}: a data: URL`] : []),
      ...[...text.matchAll(/new Worker\(\s*([`'"])/g)].map(() => `${rel}: new Worker(<string>)`),
    ]);
    expect(found).toEqual([]);
  });

  it('are started on modules that exist as sources', () => {
    const named = sources.flatMap(({ rel, text }) => [
      ...[...text.matchAll(/threadModule\(import\.meta\.url, '([^']+)'\)/g)].map((m) => join(dirname(rel), `${m[1]}.ts`)),
      ...[...text.matchAll(/new URL\('\.\/([^']+)\.js', import\.meta\.url\)/g)].map((m) => join(dirname(rel), `${m[1]}.ts`)),
    ]);
    expect(named.length).toBeGreaterThanOrEqual(8);
    expect(named.filter((rel) => !existsSync(join(SRC, rel)))).toEqual([]);
  });

  it('are modules that answer: each thread module started through startThread exports `answer`', () => {
    const started = sources.flatMap(({ rel, text }) => [...text.matchAll(/threadModule\(import\.meta\.url, '([^']+)'\)/g)].map((m) => join(dirname(rel), `${m[1]}.ts`)));
    const without = started.filter((rel) => rel !== join('util', 'thread-main.ts') && !/export (?:async )?function answer\(/.test(readFileSync(join(SRC, rel), 'utf8')));
    expect(without).toEqual([]);
  });
});
