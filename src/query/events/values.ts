// Cleaning of filter values, following the Django form fields django-filter uses, except where
// aula deliberately differs (date-only timestamps accepted, bad booleans refused).
import { RE2JSSyntaxException } from 're2js';
import { parseTimestamp } from '../../time/parse.ts';
import { asciiDigits, parsePythonInt, strip } from '../python-numbers.ts';
import { literalAlternatives, literalSequences } from './lookups/regex-literals.ts';
import { countInstructions, type CountedSize } from '../regex/program-size.ts';
import { compileRegex, type Regex } from '../regex/regex.ts';
import { WorkLimitExceeded } from '../work-budget.ts';

export const MESSAGES = {
  number: 'Enter a number.',
  datetime: 'Enter a valid date/time.',
  boolean: 'Must be true, false, 1 or 0.',
  zone: (local: string, zone: string) =>
    `${local} couldn’t be interpreted in time zone ${zone}; it may be ambiguous or it may not exist.`,
  choice: (value: string) => `Select a valid choice. ${value} is not one of the available choices.`,
  pk: (value: string) => `“${value}” is not a valid value.`,
  regex: (description: string) => `Enter a valid regular expression: ${description}.`,
  regexSize: (instructions: number, limit: number) =>
    `This pattern is too large: it compiles to ${instructions} instructions, at most ${limit} are allowed.`,
} as const;

export type Cleaned<T> = { ok: true; value: T } | { ok: false; message: string };

export { strip };

// Python's Decimal literal syntax (underscores allowed between digits, any Unicode decimal digit
// read as its ASCII digit first); Infinity and NaN parse
// as Decimals too, but Django's DecimalField refuses non-finite values with the same message.
const DIGITS = '\\d+(?:_\\d+)*';
const DECIMAL = new RegExp(`^([+-]?)(?:(${DIGITS})(?:\\.(${DIGITS})?)?|\\.(${DIGITS}))(?:[eE]([+-]?${DIGITS}))?$`);

/**
 * A NumberFilter value: a decimal truncated toward zero, as Django's IntegerField does with the
 * Decimal the form produced (`1.9` → 1, `-1.5` → -1, `1e1` → 10). Done on the digits, not on a
 * float, so `1.9999999999999999999` stays 1. Magnitudes beyond any stored value become ±Infinity,
 * which compares the same way.
 */
export function cleanNumber(text: string): Cleaned<number> {
  const m = DECIMAL.exec(asciiDigits(text));
  if (!m) return { ok: false, message: MESSAGES.number };
  const [, sign, int = '', frac = '', fracOnly, exp] = m;
  const intDigits = fracOnly === undefined ? int.replaceAll('_', '') : '';
  const digits = intDigits + (fracOnly ?? frac).replaceAll('_', '');
  const shift = exp === undefined ? 0 : Number(exp.replaceAll('_', ''));
  const point = intDigits.length + shift; // position of the decimal point within `digits`
  let magnitude: number;
  if (point <= 0 || /^0*$/.test(digits)) magnitude = 0;
  else if (point > 400) magnitude = Infinity;
  else magnitude = Number(point <= digits.length ? digits.slice(0, point) : digits.padEnd(point, '0'));
  return { ok: true, value: sign === '-' ? -magnitude : magnitude };
}

const BOOLEAN = /^(?:(true|1)|(false|0))$/i;

export function cleanBoolean(text: string): Cleaned<boolean> {
  const m = BOOLEAN.exec(text);
  if (!m) return { ok: false, message: MESSAGES.boolean };
  return { ok: true, value: m[1] !== undefined };
}

/** An instant (epoch ms) from ISO 8601 with or without offset, or a date (local midnight). */
export function cleanTimestamp(text: string, zone: string): Cleaned<number> {
  const r = parseTimestamp(text, zone);
  if (r.ok) return { ok: true, value: r.epochMs };
  if (r.reason === 'invalid' || r.local === undefined) return { ok: false, message: MESSAGES.datetime };
  return { ok: false, message: MESSAGES.zone(r.local, zone) };
}

/**
 * Ids for a ModelMultipleChoiceFilter. As in Django, every value must first be an integer, then
 * each must be the exact text of an existing id (`03` is not a choice even if 3 is). One
 * message, for the first offending value.
 */
export function cleanChoices(texts: readonly string[], isChoice: (text: string) => boolean): Cleaned<number[]> {
  // what Python's int() refuses is not even a candidate key
  for (const t of texts) if (parsePythonInt(t) === null) return { ok: false, message: MESSAGES.pk(t) };
  for (const t of texts) if (!isChoice(t)) return { ok: false, message: MESSAGES.choice(t) };
  return { ok: true, value: [...new Set(texts.map(Number))] };
}

/**
 * A `regex`/`iregex` pattern, compiled by re2js and matched by our own counting automaton
 * (src/query/regex/), so matching is linear in the text whatever the pattern and its work is
 * charged to the request. The syntax is RE2's, not PostgreSQL's ARE that the reference used: e.g.
 * `\b` is a word boundary (ARE: backspace), `\m`/`\M`/`\y` and back-references do not exist, `\w`
 * and `[[:alpha:]]` are ASCII-only while `\pL` gives Unicode letters, and `\u00fc` is written
 * `\x{fc}`. As in ARE, `.` matches a newline and `^`/`$` anchor at the ends of the whole text.
 */
/**
 * Longest regex accepted. Matching is linear whatever the pattern, but compiling is not free:
 * a 10 KB pattern of nested quantifiers took RE2JS 30–160 ms to compile.
 */
export const MAX_REGEX_LENGTH = 1000;

/**
 * Most instructions a pattern may compile to (counted as program-size.ts does). Patterns people
 * write stay far below it (a 1,000-character alternation of words needs about 1,100); counted
 * repetition of `.` or a class multiplies a few characters into thousands of instructions, which
 * re2js would take up to a second and hundreds of megabytes to compile, and which makes every
 * automaton step visit that many.
 */
export const MAX_REGEX_INSTRUCTIONS = 1500;

const tooLarge = (instructions: number): Cleaned<never> => ({ ok: false, message: MESSAGES.regexSize(instructions, MAX_REGEX_INSTRUCTIONS) });

/** `param`: the query parameter the pattern came from, charged for compiling it. */
export function cleanRegex(pattern: string, caseInsensitive: boolean, param = 'regex'): Cleaned<Regex> {
  if (pattern.length > MAX_REGEX_LENGTH) {
    return { ok: false, message: `Ensure this value has at most ${MAX_REGEX_LENGTH} characters (it has ${pattern.length}).` };
  }
  const counted = countInstructions(pattern, caseInsensitive);
  if (!counted.invalidRepeat && counted.instructions > MAX_REGEX_INSTRUCTIONS) {
    // a syntax error elsewhere says more: the pattern with its repeats made {1} has the same
    // syntax and compiles at once
    const syntax = compiled(counted.reduced, caseInsensitive, param);
    return syntax.ok ? tooLarge(counted.instructions) : syntax;
  }
  const r = compiled(pattern, caseInsensitive, param, counted);
  // the count is an upper bound of re2js's size; this only guards the count itself
  if (r.ok && r.value.program.size > MAX_REGEX_INSTRUCTIONS) return tooLarge(r.value.program.size);
  return r;
}

function compiled(pattern: string, caseInsensitive: boolean, param: string, counted?: CountedSize): Cleaned<Regex> {
  try {
    return { ok: true, value: compileRegex(pattern, caseInsensitive, param, counted) };
  } catch (e) {
    if (e instanceof WorkLimitExceeded) throw e;
    // RE2JSSyntaxException carries the bare description ("missing closing )") apart from the
    // "error parsing regexp: …: `pattern`" message
    const description = e instanceof RE2JSSyntaxException ? e.getDescription() : e instanceof Error ? e.message : String(e);
    return { ok: false, message: MESSAGES.regex(description.replace(/\.$/, '')) };
  }
}

/**
 * As cleanRegex, compiling only when the engine is needed. A pattern that is plain literals
 * (alternatives, a group of them, literals joined by `.*`) is matched with string searches (see
 * regex-literals.ts) and is valid RE2 by its shape, so its compilation — a third of the CPU of such
 * a request — is left for the rare text that still needs the engine (an `ı`/`İ`). Patterns with
 * control characters or surrogates are compiled at once, which checks them.
 */
export function cleanRegexLazily(pattern: string, caseInsensitive: boolean, param = 'regex'): Cleaned<() => Regex> {
  let counted: CountedSize | null = null;
  const plain =
    pattern.length <= MAX_REGEX_LENGTH &&
    !/[\x00-\x1f\ud800-\udfff]/.test(pattern) &&
    (literalAlternatives(pattern, caseInsensitive) !== null || literalSequences(pattern, caseInsensitive) !== null) &&
    (counted = countInstructions(pattern, caseInsensitive)).instructions <= MAX_REGEX_INSTRUCTIONS;
  if (!plain) {
    const r = cleanRegex(pattern, caseInsensitive, param);
    return r.ok ? { ok: true, value: () => r.value } : r;
  }
  let regex: Regex | null = null;
  return { ok: true, value: () => (regex ??= compileRegex(pattern, caseInsensitive, param, counted ?? undefined)) };
}
