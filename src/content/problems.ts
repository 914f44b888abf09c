// What the loader reports about content it cannot accept.
import { printable } from '../util/printable.ts';

export interface Problem {
  /** path relative to the content folder, forward slashes */
  file: string;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
  /** dotted path of the offending key inside its object (`related_media[1].media`); '' for the file */
  key: string;
  message: string;
  /** the content folder itself cannot be read (`file` is the folder): no position in a file */
  folder?: true;
  /** a line standing for the problems of a file not told (firstProblems): how many */
  more?: number;
}

/** The problem of a content folder that cannot be read: `dir` itself, no position in a file. */
export const folderProblem = (dir: string, message: string): Problem => ({ file: dir, line: 1, column: 1, key: '', message, folder: true });

/** How many problems `problems` tell of, those a counting line stands for included. */
export function problemCount(problems: readonly Problem[]): number {
  let count = 0;
  for (const p of problems) count += p.more ?? 1;
  return count;
}

/** `file:line:column key: message`, escaped for a terminal (file names may hold any character). */
export function formatProblem(p: Problem): string {
  const where = `${p.file}:${p.line}:${p.column}`;
  return printable(p.key === '' ? `${where} ${p.message}` : `${where} ${p.key}: ${p.message}`);
}

/**
 * Problems printed at the most: content broken the same way in thousands of files (a migration
 * gone wrong) would print megabytes that bury the count and the first, most useful lines.
 */
const MOST_PRINTED_PROBLEMS = 1000;

/**
 * The lines `problems` are printed as: the first MOST_PRINTED_PROBLEMS, then how many problems the
 * rest tell of (a counting line among them stands for many).
 */
export function problemLines(problems: readonly Problem[]): string[] {
  const lines = problems.slice(0, MOST_PRINTED_PROBLEMS).map(formatProblem);
  if (problems.length > MOST_PRINTED_PROBLEMS) {
    const more = problemCount(problems.slice(MOST_PRINTED_PROBLEMS));
    lines.push(`... and ${more} more problems (the first ${MOST_PRINTED_PROBLEMS} lines are shown)`);
  }
  return lines;
}

/** Orders by file, then line, then column; ties keep their order (Array.prototype.sort is stable). */
export function compareProblems(a: Problem, b: Problem): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column;
}

/** A step into a document: a mapping key or a list index. */
export type Path = readonly (string | number)[];

/** A key as a problem names it; one longer than this is cut (a problem line is read, not stored). */
const KEY_SHOWN = 80;

export function formatKey(path: Path): string {
  let out = '';
  for (const step of path) {
    const key = typeof step === 'string' && step.length > KEY_SHOWN ? `${step.slice(0, KEY_SHOWN - 3)}...` : step;
    out += typeof key === 'number' ? `[${key}]` : out === '' ? key : `.${key}`;
  }
  return out;
}

/**
 * A problem found while reading values, before its line and column are known: validation works
 * on plain values (fast), and positions are looked up only for the few places that need one.
 */
export interface Issue {
  /** index of the object in a file holding a list of objects; null when the file holds one object */
  item: number | null;
  /** path of the key inside the object */
  key: Path;
  /** point at the key itself (unknown keys), its value, the object that lacks it, or a Markdown file's body (at its line `line`) */
  at: 'key' | 'value' | 'object' | 'body';
  message: string;
  /** with `at: 'body'`: the body's line (1: its first) */
  line?: number;
}

/** An Issue in a known file, found by a check across records after the files were parsed. */
export interface FileIssue extends Issue {
  file: string;
}

/**
 * The problems of one file's records told at most; the rest are counted. A 15 MiB file of bad
 * two-line records holds millions, each kept and positioned (gigabytes, a minute of CPU), while
 * its author needs the first ones to see what is wrong.
 */
export const MOST_RECORD_PROBLEMS = 100;

/**
 * The Issues of one file's records: every one counted, the first kept. Once MOST_RECORD_PROBLEMS
 * are kept, the rest of the record at hand is kept too (up to ten times as many), so that the
 * ones told, sorted by position, are the first of the file (a record's issues are found in the
 * order its keys are read, not in the order they are written).
 */
export class FileIssues {
  readonly kept: Issue[] = [];
  /** how many were found, kept or not */
  count = 0;

  push(issue: Issue): void {
    this.count++;
    const { kept } = this;
    if (kept.length < MOST_RECORD_PROBLEMS || (kept.length < 10 * MOST_RECORD_PROBLEMS && kept[kept.length - 1].item === issue.item)) kept.push(issue);
  }
}

/** The problems of one file's records as told: the first MOST_RECORD_PROBLEMS by position, then one counting the rest (at the last one told). */
export function firstProblems(located: Problem[], count: number): Problem[] {
  located.sort(compareProblems);
  if (count <= MOST_RECORD_PROBLEMS) return located;
  const shown = located.slice(0, MOST_RECORD_PROBLEMS);
  const { file, line, column } = shown[shown.length - 1];
  const message = `and ${count - MOST_RECORD_PROBLEMS} more problems in this file's records, not shown: correct those above first`;
  shown.push({ file, line, column, key: '', message, more: count - MOST_RECORD_PROBLEMS });
  return shown;
}

/** Collects the Issues of one object. */
export class IssueSink {
  constructor(
    readonly item: number | null,
    readonly issues: { push(issue: Issue): unknown },
  ) {}

  add(key: Path, at: Issue['at'], message: string, line?: number): void {
    this.issues.push(line === undefined ? { item: this.item, key, at, message } : { item: this.item, key, at, message, line });
  }
}

/** A short rendering of a value for messages: `"abc"`, `1.5`, `null`, `a list`, `a mapping`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const s = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return JSON.stringify(s);
  }
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') return 'a mapping';
  return String(value);
}
