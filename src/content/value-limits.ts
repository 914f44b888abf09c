// Limits on the values read from a content file, checked before any record is read from them:
// nesting depth (deep values overflow the stack of every recursive consumer — JSON.stringify,
// the HTML page — and 3,000 levels of `[` turned 6.5 KB into a 36 MB page), and integers beyond
// 2^53-1, which a JavaScript number cannot hold exactly (the reader keeps them as BigInt so that
// the message can quote what was written, not its rounded neighbour).
import type { Path } from './problems.ts';

export const MAX_DEPTH = 64;

export interface ValueLimits {
  /** path to the first value nested deeper than MAX_DEPTH, or null */
  tooDeep: Path | null;
  /** integers outside the safe range, as written */
  unsafe: { path: Path; text: string }[];
  /**
   * Values JSON cannot hold, which JSON.stringify would turn into something else without a word:
   * numbers that are not finite (`.nan`, `.inf`, `1e400`) and what YAML's tags beyond the core
   * schema make (`!!binary` bytes, `!!set`, `!!omap`, `!!timestamp` dates).
   */
  unreadable: { path: Path; message: string }[];
  /**
   * The values' size as if written out: the characters of every string and key, one for any
   * other value, a value reached twice counted twice. Only YAML's aliases make it larger than the
   * text (source.ts bounds it).
   */
  size: number;
}

interface Step {
  value: unknown;
  depth: number;
  parent: Step | null;
  key: string | number;
}

function pathOf(step: Step): Path {
  const path: (string | number)[] = [];
  for (let s: Step | null = step; s?.parent; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * Walks `value` without recursion. BigInts within the safe range (the `yaml` reader gives every
 * integer as one) are turned into numbers in place; the others are reported.
 */
export function checkValue(value: unknown): ValueLimits {
  const result: ValueLimits = { tooDeep: null, unsafe: [], unreadable: [], size: typeof value === 'string' ? value.length : 1 };
  const stack: Step[] = [{ value, depth: 0, parent: null, key: '' }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const v = step.value;
    if (v === null || typeof v !== 'object') {
      // only the top value gets here unchecked; the items below are checked as they are pushed
      if (step.parent === null && typeof v === 'number' && !Number.isFinite(v)) result.unreadable.push({ path: [], message: NOT_FINITE });
      continue;
    }
    if (!isPlain(v)) {
      result.unreadable.push({ path: pathOf(step), message: unreadableObject(v) });
      continue;
    }
    const depth = step.depth + 1;
    if (depth > MAX_DEPTH) {
      result.tooDeep ??= pathOf(step);
      continue;
    }
    const container = v as Record<string | number, unknown>;
    // Arrays by index, objects by key, without building a key list for arrays (most values).
    const isArray = Array.isArray(v);
    const keys: string[] | null = isArray ? null : Object.keys(v);
    const count = isArray ? (v as unknown[]).length : keys!.length;
    for (let k = count - 1; k >= 0; k--) {
      const key = isArray ? k : keys![k];
      const item = container[key];
      result.size += (isArray ? 0 : (key as string).length) + (typeof item === 'string' ? item.length : 1);
      if (typeof item === 'bigint') {
        if (item >= -MAX_SAFE && item <= MAX_SAFE) container[key] = Number(item);
        else result.unsafe.push({ path: pathOf({ value: item, depth, parent: step, key }), text: item.toString() });
      } else if (typeof item === 'number') {
        // Only from JSON.parse (the YAML readers give integers as BigInt or safe numbers): an
        // integer written beyond the safe range, already rounded; the caller reads it again.
        if (Number.isInteger(item) && !Number.isSafeInteger(item)) result.unsafe.push({ path: pathOf({ value: item, depth, parent: step, key }), text: '' });
        else if (!Number.isFinite(item)) result.unreadable.push({ path: pathOf({ value: item, depth, parent: step, key }), message: NOT_FINITE });
      } else if (item !== null && typeof item === 'object') {
        stack.push({ value: item, depth, parent: step, key });
      }
    }
  }
  result.unsafe.sort((a, b) => comparePaths(a.path, b.path));
  return result;
}

export const NOT_FINITE =
  'not a finite number (.nan, .inf, or one beyond ±1.8e308), which JSON cannot hold; write a number, or quote the text';

/** A list, or a mapping as JSON.parse and `yaml` make them. */
function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * What `yaml` makes of the YAML 1.1 tags it knows beyond the core schema, refused: each would
 * reach the API as something else (bytes as a list of numbers, a set or an ordered mapping as
 * `{}`, a time without an offset read in UTC, not in the site's zone).
 */
function unreadableObject(v: object): string {
  if (v instanceof Uint8Array) return 'a !!binary value, which JSON cannot hold; write the text without the tag (base64 is text), or leave it out';
  if (v instanceof Set) return 'a !!set, which JSON cannot hold; write a list';
  if (v instanceof Map) return 'an !!omap, which JSON cannot hold; write a mapping (its keys keep their order)';
  if (v instanceof Date) {
    return "a !!timestamp, which reads a time without an offset in UTC, not in site.yaml's timezone; write the timestamp without the tag";
  }
  return 'a value of a YAML tag aula does not read; write it without the tag';
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return typeof a[i] === 'number' && typeof b[i] === 'number' ? (a[i] as number) - (b[i] as number) : 0;
  }
  return a.length - b.length;
}

/**
 * Where nesting in the text first exceeds `max` levels, or -1: brackets outside quotes and
 * comments, plus block indentation levels and `- ` items for YAML. An estimate (it can count a
 * `[` inside a plain scalar, and undercounts some block forms), good enough to keep the parsers
 * from ever seeing thousands of levels; the exact check is `checkValue` on the parsed value.
 */
export function scanNesting(text: string, max = MAX_DEPTH): number {
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (lineStart) {
      if (c === 32) {
        indent++;
        continue;
      }
      if (c === 10 || c === 13) {
        indent = 0;
        continue;
      }
      lineStart = false;
      if (flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
        // A line that opens a flow collection is no block level of its own (JSON's first `{`).
        if (c !== 91 && c !== 123) indents.push(indent);
        let dashes = 0;
        for (let j = i; (text.charCodeAt(j) === 45 || text.charCodeAt(j) === 63) && text.charCodeAt(j + 1) === 32; j += 2) {
          dashes++;
          while (text.charCodeAt(j + 2) === 32) j++;
        }
        if (indents.length + dashes > max) return i;
      }
    }
    if (c === 10) {
      lineStart = true;
      indent = 0;
    } else if (c === 91 || c === 123) {
      if (++flow + indents.length > max) return i;
    } else if (c === 93 || c === 125) {
      if (flow > 0) flow--;
    } else if ((c === 34 || c === 39) && startsScalar(text.charCodeAt(i - 1))) {
      // a quoted string: skip to its end (backslash escapes in double quotes)
      for (i++; i < text.length && text.charCodeAt(i) !== c; i++) if (c === 34 && text.charCodeAt(i) === 92) i++;
    } else if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 10)) {
      while (i + 1 < text.length && text.charCodeAt(i + 1) !== 10) i++;
    }
  }
  return -1;
}

/** Whether a quote after this character opens a quoted scalar (not an apostrophe inside a word). */
function startsScalar(previous: number): boolean {
  return Number.isNaN(previous) || previous === 32 || previous === 10 || previous === 91 || previous === 123 || previous === 44 || previous === 58 || previous === 45;
}

/** 1-based line and column of `offset` in `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
