// Reads the keys of one content object by their rules (rules.ts, shapes.ts). Each read records
// an Issue instead of throwing, so one pass over a file reports every problem in it; the
// object's known keys are exactly the keys that were read, which a test holds equal to the
// keys of the object's shape.
import type { Instant } from '../model/types.ts';
import { readTimestamp } from './timestamps.ts';
import { describeValue, type IssueSink, type Path } from './problems.ts';
import type { Rule, ValueKind } from './rules.ts';

export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

/** What a value of each kind must be, as problem messages say it. */
const EXPECTED: Record<Exclude<ValueKind, 'any'>, string> = {
  int: 'an integer',
  intOrNull: 'an integer or null',
  string: 'a string',
  stringOrNull: 'a string or null',
  bool: 'a boolean (true or false)',
  list: 'a list',
  intList: 'a list',
  stringList: 'a list',
};

function accepts(kind: ValueKind, v: unknown): boolean {
  switch (kind) {
    case 'int':
      return isInt(v);
    case 'intOrNull':
      return v === null || isInt(v);
    case 'string':
      return isString(v);
    case 'stringOrNull':
      return v === null || isString(v);
    case 'bool':
      return isBool(v);
    case 'list':
    case 'intList':
    case 'stringList':
      return Array.isArray(v);
    case 'any':
      return true;
  }
}

/** C0 controls (line breaks among them) and DEL. */
const CONTROL = /[\x00-\x1f\x7f]/;

/** Nothing but white space; a string starting with a visible ASCII character is decided at once. */
function isBlank(s: string): boolean {
  const c = s.charCodeAt(0);
  return !(c > 32 && c < 127) && s.trim() === '';
}

/** A timestamp written as a date alone (time/parse.ts reads it as local midnight). */
const DATE_ONLY = /^\d{4}-\d{1,2}-\d{1,2}$/;

/** The key that is kept and ignored on every kind of object. */
const EXTRA = 'extra';

export class Fields {
  private readonly used: string[] = [];
  /** how many of the used keys the object has */
  private present = 0;
  /** keys whose value a rule refused (read as its fallback); made at the first (most objects have none) */
  private refusedKeys: Set<string> | null = null;

  constructor(
    private readonly obj: Obj,
    private readonly sink: IssueSink,
    /** path of this object inside its top-level object, e.g. ['related_media', 1] */
    private readonly base: Path = [],
  ) {}

  path(key: string | number): Path {
    return this.base.length === 0 ? [key] : [...this.base, key];
  }

  /** Records a problem with a value this object holds (or with item `index` of it), e.g. one found by a cross-field check. */
  problem(key: string, message: string, index?: number): void {
    this.sink.add(index === undefined ? this.path(key) : [...this.path(key), index], 'value', message);
  }

  /** Records a problem with a Markdown file's body, at its line `line` (1: the body's first). */
  bodyProblem(message: string, line = 1): void {
    this.sink.add(this.path('body'), 'body', message, line);
  }

  /** Reports a key that this kind of object must not have. */
  forbid(key: string, message: string): void {
    this.take(key);
    this.sink.add(this.path(key), 'key', message);
  }

  /** Whether read() refused the value of `key` (it read as the fallback): cross-field checks skip it. */
  refused(key: string): boolean {
    return this.refusedKeys !== null && this.refusedKeys.has(key);
  }

  has(key: string): boolean {
    return Object.hasOwn(this.obj, key);
  }

  /** The value of the rule's key, checked against the rule; see rules.ts. */
  read<T>(rule: Rule<T, ValueKind>): T {
    const { key } = rule;
    const v = this.take(key);
    if (v === undefined) return this.absent(rule);
    switch (rule.kind) {
      case 'any':
        return v as T;
      case 'intList': {
        const ids = this.listOf(key, v, 'an integer', isInt);
        return (rule.unique ? once(this, key, ids, rule.unique.what) : ids) as T;
      }
      case 'stringList':
        return this.listOf(key, v, 'a string', isString) as T;
      default:
        if (!accepts(rule.kind, v)) return this.invalid(rule, `expected ${EXPECTED[rule.kind]}, got ${describeValue(v)}`);
    }
    if (rule.minimum !== undefined && typeof v === 'number' && v < rule.minimum.value) {
      return this.invalid(rule, `expected ${rule.minimum.expected}, got ${v}`);
    }
    if (rule.excluded !== undefined && v === rule.excluded.value) return this.invalid(rule, rule.excluded.message);
    if (rule.nonEmpty && isBlank(v as string)) return this.invalid(rule, `expected text, got ${describeValue(v)}`);
    if (rule.oneLine && typeof v === 'string' && CONTROL.test(v)) {
      return this.invalid(rule, `expected one line, got ${describeValue(v)} (a line break or another control character)`);
    }
    if (rule.oneOf !== undefined && !rule.oneOf.includes(v as string)) {
      return this.invalid(rule, `expected one of ${rule.oneOf.join(', ')}, got ${describeValue(v)}`);
    }
    return v as T;
  }

  /** A list of mappings, each handed back with a Fields reader for its keys. */
  objectList(rule: Rule<unknown[], 'objectList'>): Fields[] {
    const { key } = rule;
    const items: Fields[] = [];
    const v = this.take(key);
    if (v === undefined) return items;
    if (!Array.isArray(v)) {
      this.invalid(rule, `expected ${EXPECTED.list}, got ${describeValue(v)}`);
      return items;
    }
    v.forEach((item, i) => {
      if (isObject(item)) items.push(new Fields(item, this.sink, [...this.path(key), i]));
      else this.sink.add([...this.path(key), i], 'value', `expected a mapping, got ${describeValue(item)}`);
    });
    return items;
  }

  /** The value of `key` as written, without reading it (a reader that must know it before its turn). */
  peek(key: string): unknown {
    return Object.hasOwn(this.obj, key) ? this.obj[key] : undefined;
  }

  /**
   * `lastDay`: a date alone (`2026-07-10`) means the last second of that local day, 23:59:59, not
   * its midnight: an all-day event's end names its last day.
   */
  timestamp(rule: Rule<number | undefined, 'timestamp'>, zone: string, lastDay?: boolean): Instant | undefined;
  timestamp(rule: Rule<number | null, 'timestampOrNull'>, zone: string): Instant | null;
  timestamp(rule: Rule<number | null | undefined, 'timestamp' | 'timestampOrNull'>, zone: string, lastDay = false): Instant | null | undefined {
    const { key } = rule;
    const v = this.take(key);
    if (rule.kind === 'timestamp') {
      if (v === undefined) return this.missing(key);
      return this.instant(key, lastDay && typeof v === 'string' && DATE_ONLY.test(v) ? `${v}T23:59:59` : v, zone, 'an ISO 8601 timestamp');
    }
    if (v === undefined || v === null) return null;
    return this.instant(key, v, zone, 'an ISO 8601 timestamp or null') ?? null;
  }

  /** Keys not read so far, except `extra`, in file order (categories keep them). */
  rest(): [string, unknown][] {
    return Object.entries(this.obj).filter(([k]) => k !== EXTRA && !this.used.includes(k));
  }

  /** Reports every key that no reader asked for. Call after all reads. `what` names the object kind. */
  rejectUnknown(what?: string): void {
    const keys = Object.keys(this.obj);
    // The common case (every key known) costs one comparison.
    if (keys.length === this.present + (this.has(EXTRA) ? 1 : 0)) return;
    for (const k of keys) {
      if (k === EXTRA || this.used.includes(k)) continue;
      const hint = closest(k, this.used);
      const message = what ? `unknown key for ${what}` : 'unknown key';
      this.sink.add(this.path(k), 'key', hint ? `${message} (did you mean "${hint}"?)` : message);
    }
  }

  private take(key: string): unknown {
    this.used.push(key);
    if (!Object.hasOwn(this.obj, key)) return undefined; // values are never `undefined` otherwise
    this.present++;
    return this.obj[key];
  }

  private missing(key: string): undefined {
    this.sink.add(this.path(key), 'object', 'required key is missing');
    return undefined;
  }

  /** An absent key: its fallback, or a problem when it is required. */
  private absent<T>(rule: Rule<T>): T {
    const { requiredUnless } = rule;
    if (rule.required || (requiredUnless !== undefined && typeof this.obj[requiredUnless] !== 'string')) {
      return this.missing(rule.key) as T;
    }
    return rule.fallback as T;
  }

  /** A value the rule refuses reads as its fallback (undefined when required), so that later checks skip it. */
  private invalid<T>(rule: Rule<T>, message: string): T {
    (this.refusedKeys ??= new Set()).add(rule.key);
    this.sink.add(this.path(rule.key), 'value', message);
    return (rule.required ? undefined : rule.fallback) as T;
  }

  /** A list with a bad element reads as empty, so later checks cannot report shifted indices. */
  private listOf<T>(key: string, list: unknown, expected: string, ok: (v: unknown) => v is T): T[] {
    if (!Array.isArray(list)) {
      this.sink.add(this.path(key), 'value', `expected ${EXPECTED.list}, got ${describeValue(list)}`);
      return [];
    }
    let valid = true;
    for (let i = 0; i < list.length; i++) {
      if (ok(list[i])) continue;
      valid = false;
      this.sink.add([...this.path(key), i], 'value', `expected ${expected}, got ${describeValue(list[i])}`);
    }
    return valid ? (list as T[]) : [];
  }

  private instant(key: string, v: unknown, zone: string, expected: string): Instant | undefined {
    // Timestamps are strings: the YAML 1.2 core schema keeps them so, and the Date of a
    // `!!timestamp` tag is refused before any record is read (value-limits.ts).
    if (typeof v === 'string') {
      const r = readTimestamp(v, zone);
      if (r.ok) return r.epochMs;
      if (r.reason === 'range') {
        this.problem(key, outOfRange(v, zone));
        return undefined;
      }
      if (r.reason === 'nonexistent') {
        this.problem(key, `${r.local} does not exist in ${zone} (skipped by a daylight-saving change); write it with a UTC offset`);
        return undefined;
      }
      if (r.reason === 'ambiguous') {
        this.problem(key, `${r.local} is ambiguous in ${zone} (repeated by a daylight-saving change); write it with a UTC offset`);
        return undefined;
      }
    }
    this.problem(key, `expected ${expected}, got ${describeValue(v)}`);
    return undefined;
  }
}

function outOfRange(text: string, zone: string): string {
  return `${text} is outside the years 1 to 9999 (${zone === 'UTC' ? 'in UTC' : `in UTC or in ${zone}`}), which the API cannot write`;
}

/** The candidate a typo most likely meant, for "did you mean" hints; none when nothing is close. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = word.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    // at least the lengths' difference apart: skipped unmeasured (a megabyte-long unknown key
    // against every known one made a table of its length by theirs: minutes and gigabytes)
    if (Math.abs(word.length - c.length) > limit) continue;
    const d = editDistance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The ids of a list, each once: a repeated one is a problem at its repetition (an event is in a
 * category or not; the original's many-to-many relation cannot list one twice). The list reads
 * as written, so later checks still point at the right places.
 */
function once(f: Fields, key: string, ids: number[], what: string): number[] {
  // (a short list, as nearly every event has, is compared pairwise: no map to make per event)
  const seen = ids.length > 16 ? new Map<number, number>() : null;
  for (let i = 1; i < ids.length; i++) {
    let first = -1;
    if (seen) {
      if (i === 1) seen.set(ids[0], 0);
      first = seen.get(ids[i]) ?? -1;
      if (first < 0) seen.set(ids[i], i);
    } else {
      first = ids.indexOf(ids[i]);
      if (first === i) first = -1;
    }
    if (first >= 0) f.problem(key, `${what} ${ids[i]} is listed again (first as ${key}[${first}]); list each once`, i);
  }
  return ids;
}
