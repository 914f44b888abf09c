// Reads the objects of one content file: a pure function of (path, text), so that files can be
// parsed in any order or place; checks that need other files come later (see checks.ts).
import { Fields, isObject } from './fields.ts';
import { describeValue, IssueSink, type Issue, type Problem } from './problems.ts';
import { dataPart, locateIssues, readData } from './source.ts';

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

  const issues: Issue[] = [];
  const records: Sourced<T>[] = [];
  const add = (obj: Record<string, unknown>, item: number | null) => {
    records.push({ value: read(new Fields(obj, new IssueSink(item, issues)), part.body), file, item });
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
  return { records, problems: issues.length > 0 ? locateIssues(file, text, issues) : [] };
}
