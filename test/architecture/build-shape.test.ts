// The shape of the build's code (src/pipeline): stage folders of a dozen files or so, no function
// longer than a screen, and no more lines than today. The functions and folders over the bounds
// today are listed with their size, which may only shrink: a new one, or one grown, fails; so does
// a build grown past MOST_BUILD_LINES (lower it as the build shrinks).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC } from './graph.ts';

const PIPELINE = join(SRC, 'pipeline');
const MOST_LINES = 80;
const MOST_FILES = 12;
/** The build's lines of code (src/pipeline, tests left out), at the most. */
const MOST_BUILD_LINES = 3478;

/** Functions over MOST_LINES today, by `file:name`, with their lines. */
const LONG_FUNCTIONS: Record<string, number> = {};
/** Folders over MOST_FILES today, with their files. */
const FULL_FOLDERS: Record<string, number> = {};

/** Each function's name and length in lines, found by its opening line and its braces (strings, comments and templates skipped). */
export function functionLengths(text: string): { name: string; lines: number }[] {
  const found: { name: string; lines: number }[] = [];
  const lines = text.split('\n');
  const opener = /^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z0-9_$]+)|^\s*(?:export\s+)?(?:const|let)\s+([A-Za-z0-9_$]+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z0-9_$]+)\s*(?::[^=]*)?=>\s*\{\s*$|^\s+(?:(?:private|public|protected|static|async|readonly)\s+)*(?!if\b|for\b|while\b|switch\b|catch\b|return\b)([A-Za-z0-9_$]+)\s*\([^;]*\)\s*(?::[^=;{]+)?\{\s*$/;
  for (let i = 0; i < lines.length; i++) {
    const m = opener.exec(lines[i]);
    if (!m) continue;
    const end = closingLine(lines, i);
    if (end !== null) found.push({ name: m[1] ?? m[2] ?? m[3], lines: end - i + 1 });
  }
  return found;
}

/** The line of the brace closing the first one opened at or after line `from`. */
function closingLine(lines: string[], from: number): number | null {
  let depth = 0;
  let opened = false;
  let quote: string | null = null;
  const templates: number[] = [];
  for (let i = from; i < lines.length; i++) {
    const line = lines[i];
    for (let j = 0; j < line.length; j++) {
      const c = line[j];
      if (quote) {
        if (c === '\\') j++;
        else if (quote === '`' && c === '$' && line[j + 1] === '{') {
          templates.push(depth);
          depth++;
          quote = null;
          j++;
        } else if (c === quote) quote = null;
        continue;
      }
      if (c === '/' && line[j + 1] === '/') break;
      if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}') {
        depth--;
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop();
          quote = '`';
        } else if (opened && depth === 0) return i;
      }
    }
    if (quote !== '`') quote = null;
  }
  return null;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => join(dir, f));
}

describe('the build code', () => {
  it('finds functions and their lengths', () => {
    expect(functionLengths('function a() {\n  const s = "}";\n  return `${1}}`;\n}\n')).toEqual([{ name: 'a', lines: 4 }]);
    const all = sources(PIPELINE).flatMap((f) => functionLengths(readFileSync(f, 'utf8')));
    expect(all.length).toBeGreaterThan(150);
  });

  it(`has no function over ${MOST_LINES} lines but those listed, none grown`, () => {
    const over = sources(PIPELINE).flatMap((f) =>
      functionLengths(readFileSync(f, 'utf8'))
        .filter((fn) => fn.lines > MOST_LINES)
        .map((fn) => [`${relative(PIPELINE, f)}:${fn.name}`, fn.lines] as const),
    );
    const grown = over.filter(([key, lines]) => !(key in LONG_FUNCTIONS) || lines > LONG_FUNCTIONS[key]);
    expect(Object.fromEntries(grown)).toEqual({});
  });

  it(`has at most ${MOST_BUILD_LINES} lines`, () => {
    const lines = sources(PIPELINE).reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length - 1, 0);
    expect(lines).toBeLessThanOrEqual(MOST_BUILD_LINES);
  });

  it(`has no folder of more than ${MOST_FILES} files but those listed, none grown`, () => {
    const counts = new Map<string, number>();
    for (const f of readdirSync(PIPELINE, { recursive: true }).map(String)) {
      if (!f.endsWith('.ts')) continue;
      const folder = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.';
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
    const grown = [...counts].filter(([folder, n]) => n > MOST_FILES && (!(folder in FULL_FOLDERS) || n > FULL_FOLDERS[folder]));
    expect(Object.fromEntries(grown)).toEqual({});
  });
});
