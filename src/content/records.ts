// Reads the objects of one content file: a pure function of (path, text), so that files can be
// parsed in any order or place; checks that need other files come later (see checks.ts).
import { Fields, isObject } from './fields.ts';
import { describeValue, FileIssues, firstProblems, formatKey, IssueSink, type Issue, type Problem } from './problems.ts';
import { dataPart, locateIssues, readData, TOO_DEEP, type DataValue } from './source.ts';
import { comparePaths, positionOf, scanNesting } from './value-limits.ts';

/** A record and where it came from, so that later checks can point back at it. */
export interface Sourced<T> {
  value: T;
  file: string;
  /** index in a file holding a list of objects; null when the file holds one object */
  item: number | null;
}

export interface Parsed<T> {
  records: Sourced<T>[];
  problems: Problem[];
}

/** Reads one object's keys; `markdown` is the body of a Markdown file, else null. */
export type ReadObject<T> = (fields: Fields, markdown: string | null) => T;

/**
 * `many`: the file holds one object or a list of them (an empty file holds none).
 * `one`: the file holds one object (site.yaml). A Markdown file's front matter is always one.
 */
export function parseFile<T>(file: string, text: string, read: ReadObject<T>, shape: 'one' | 'many' = 'many'): Parsed<T> {
  const part = dataPart(file, text);
  if (!part.ok) return { records: [], problems: [part.problem] };
  const data = readData(file, part);
  if (!data.ok) return { records: [], problems: data.problems };
  const limited = limitProblems(file, text, part, data);
  if (limited) return { records: [], problems: limited };

  const issues = new FileIssues();
  const records: Sourced<T>[] = [];
  const add = (obj: Record<string, unknown>, item: number | null) => {
    records.push({ value: detached(read(new Fields(obj, new IssueSink(item, issues)), part.body)), file, item });
  };
  const refuse = (item: number | null, expected: string, value: unknown) =>
    issues.push({ item, key: [], at: 'value', message: `expected ${expected}, got ${describeValue(value)}` });

  const value = data.value;
  if (part.body !== null) {
    // Empty front matter is an object without keys: its required keys are then reported.
    if (value === null || isObject(value)) add(value ?? {}, null);
    else refuse(null, 'the front matter to be a mapping', value);
  } else if (isObject(value)) {
    add(value, null);
  } else if (shape === 'many' && Array.isArray(value)) {
    value.forEach((v, i) => (isObject(v) ? add(v, i) : refuse(i, 'a mapping', v)));
  } else if (value !== null) {
    refuse(null, shape === 'one' ? 'a mapping' : 'a mapping or a list of mappings', value);
  }
  return { records, problems: issues.count > 0 ? firstProblems(locateIssues(file, text, issues.kept), issues.count) : [] };
}

/**
 * Values too deep, integers too large or values JSON cannot hold: reported instead of reading any record of the file (its
 * records would only repeat the same problems in other words).
 */
function limitProblems(file: string, text: string, part: { text: string; lineOffset: number }, data: DataValue & { ok: true }): Problem[] | null {
  const { tooDeep, unsafe, unreadable } = data.limits;
  if (!tooDeep && unsafe.length === 0 && unreadable.length === 0) return null;
  const listed = Array.isArray(data.value);
  const issue = (path: readonly (string | number)[], message: string): Issue =>
    listed && typeof path[0] === 'number' ? { item: path[0], key: path.slice(1), at: 'value', message } : { item: null, key: path, at: 'value', message };
  if (tooDeep) {
    // Locating the path would parse thousands of levels with `yaml`; the text scan finds the spot.
    const at = scanNesting(part.text);
    if (at >= 0) {
      const { line, column } = positionOf(part.text, at);
      const key = issue(tooDeep, TOO_DEEP);
      return [{ file, line: line + part.lineOffset, column, key: formatKey(key.key), message: TOO_DEEP }];
    }
    return locateIssues(file, text, [issue(tooDeep, TOO_DEEP)]);
  }
  const max = Number.MAX_SAFE_INTEGER;
  const found = [
    ...unsafe.map((u) => ({ path: u.path, message: `${u.text} is too large: integers must lie between -${max} and ${max} (2^53-1)` })),
    ...unreadable,
  ].sort((a, b) => comparePaths(a.path, b.path));
  const issues = new FileIssues();
  for (const u of found) issues.push(issue(u.path, u.message));
  return firstProblems(locateIssues(file, text, issues.kept), issues.count);
}

/**
 * The record with each of its longer strings copied out of the file's text. A string cut from
 * another (a YAML scalar from the file) is a view that keeps the whole text alive: every loaded
 * event would keep its file's whole text, as a two-byte string when the file has one character
 * beyond Latin-1. JSON.parse makes each string anew, one byte per character where it
 * can, and keeps every character exactly (lone surrogates included). Shorter strings are copies
 * already (V8 makes views only of 13 characters and more).
 */
function detached<T>(value: T): T {
  return copyStrings ? (detach(value) as T) : value;
}

let copyStrings = true;

/**
 * For a thread whose parses are serialized before anyone keeps them (pipeline/load/parse-thread.ts):
 * serializing copies every string already, so detaching them first would only copy them twice.
 */
export function keepSlicedStrings(): void {
  copyStrings = false;
}

function detach(v: unknown): unknown {
  if (typeof v === 'string') return v.length >= 13 ? (JSON.parse(JSON.stringify(v)) as string) : v;
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = detach(v[i]);
  } else {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = detach(o[k]);
  }
  return v;
}
