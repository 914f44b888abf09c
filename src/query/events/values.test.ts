import { describe, expect, it } from 'vitest';
import { cleanBoolean, cleanChoices, cleanNumber, cleanRegex, cleanRegexLazily, cleanTimestamp, MAX_REGEX_INSTRUCTIONS, MESSAGES, strip } from './values.ts';
import { metered, WorkLimitExceeded, WorkMeter } from '../work-budget.ts';
import { RE2JS } from 're2js';
import { prng } from './test-random.ts';
import { UNCOUNTED } from '../work-tally.ts';

describe('strip', () => {
  it('removes what Python str.strip() removes', () => {
    expect(strip(' \t\n\r\x0b\x0c a b \x1c\x1f\x85\xa0\u2003\u3000')).toBe('a b');
    expect(strip('\ufeffx')).toBe('\ufeffx'); // not whitespace to Python
    expect(strip('   ')).toBe('');
  });
});

describe('cleanNumber', () => {
  it.each([
    ['8', 8], ['+8', 8], ['008', 8], ['-8', -8], ['1.5', 1], ['1.9999999999999999999', 1], ['-1.5', -1],
    ['1e1', 10], ['1E+1', 10], ['.5', 0], ['5.', 5], ['.8e1', 8], ['80e-1', 8], ['123456789e-3', 123456],
    ['1_000', 1000], ['1_0.5_5', 10], ['0e400', 0], ['9e-999999', 0], ['1e400', Infinity], ['-1e400', -Infinity],
    ['12345678901234567890', 12345678901234567890],
    // Decimal() reads any Unicode decimal digit
    ['١', 1], ['３.５', 3], ['-٤٢e١', -420],
  ])('%s → %d', (text, value) => {
    expect(cleanNumber(text)).toEqual({ ok: true, value });
  });
  it('reads -0.5 as zero', () => {
    const r = cleanNumber('-0.5');
    expect(r.ok && r.value === 0).toBe(true);
  });
  it.each(['abc', 'NaN', 'nan', 'sNaN', 'Infinity', 'inf', '-Infinity', '', ' 8', '1,5', '0x1f', '1e', 'e5', '.', '-', '+', '1__0', '_1', '1_', '1.2.3', '١.٢.٣', '²'])(
    'refuses %j',
    (text) => {
      expect(cleanNumber(text)).toEqual({ ok: false, message: 'Enter a number.' });
    },
  );
});

describe('cleanBoolean', () => {
  it.each([['true', true], ['TRUE', true], ['tRuE', true], ['1', true], ['false', false], ['False', false], ['0', false]])('%s', (t, v) => {
    expect(cleanBoolean(t)).toEqual({ ok: true, value: v });
  });
  it.each(['yes', 'no', 'on', 'off', '2', '01', 't', 'f', ''])('refuses %j', (t) => {
    expect(cleanBoolean(t)).toEqual({ ok: false, message: MESSAGES.boolean });
  });
});

describe('cleanTimestamp', () => {
  const Z = 'Europe/Vienna';
  it.each([
    ['2025-05-09T16:00:00+02:00', Date.UTC(2025, 4, 9, 14)],
    ['2025-05-09T14:00:00Z', Date.UTC(2025, 4, 9, 14)],
    ['2025-05-09T16:00:00+0200', Date.UTC(2025, 4, 9, 14)],
    ['2025-05-09T16:00:00', Date.UTC(2025, 4, 9, 14)],
    ['2025-05-09 16:00', Date.UTC(2025, 4, 9, 14)],
    ['2025-05-09', Date.UTC(2025, 4, 8, 22)],
    ['2025-01-09', Date.UTC(2025, 0, 8, 23)],
  ])('%s', (text, ms) => {
    expect(cleanTimestamp(text, Z)).toEqual({ ok: true, value: ms });
  });
  it('names the local time that DST makes ambiguous or skips', () => {
    expect(cleanTimestamp('2025-10-26T02:30:00', Z)).toEqual({
      ok: false,
      message: '2025-10-26 02:30:00 couldn’t be interpreted in time zone Europe/Vienna; it may be ambiguous or it may not exist.',
    });
    expect(cleanTimestamp('2025-03-30T02:30', Z)).toEqual({
      ok: false,
      message: '2025-03-30 02:30:00 couldn’t be interpreted in time zone Europe/Vienna; it may be ambiguous or it may not exist.',
    });
    expect(cleanTimestamp('2025-03-30T02:30', 'America/New_York')).toEqual({ ok: true, value: Date.UTC(2025, 2, 30, 6, 30) });
  });
  it('refuses garbage', () => {
    expect(cleanTimestamp('2025-05-09T16:00:00 02:00', Z)).toEqual({ ok: false, message: 'Enter a valid date/time.' });
  });
});

describe('cleanChoices', () => {
  const known = new Set(['3', '7']);
  const isChoice = (t: string) => known.has(t);
  it('accepts known ids, de-duplicated', () => {
    expect(cleanChoices(['3', '7', '3'], isChoice)).toEqual({ ok: true, value: [3, 7] });
  });
  it('checks that all are integers before checking choices', () => {
    expect(cleanChoices(['9', 'x', 'y'], isChoice)).toEqual({ ok: false, message: '“x” is not a valid value.' });
    expect(cleanChoices(['3', '9', '8'], isChoice)).toEqual({ ok: false, message: 'Select a valid choice. 9 is not one of the available choices.' });
    expect(cleanChoices(['+3'], isChoice)).toEqual({ ok: false, message: 'Select a valid choice. +3 is not one of the available choices.' });
    expect(cleanChoices(['3.0'], isChoice)).toEqual({ ok: false, message: '“3.0” is not a valid value.' });
  });
});

describe('cleanRegex', () => {
  it('compiles RE2 with DOTALL, case-insensitive on request', () => {
    const r = cleanRegex('a.b', false);
    expect(r.ok && r.value.test('xa\nbx', UNCOUNTED)).toBe(true);
    const i = cleanRegex('ABC', true);
    expect(i.ok && i.value.test('xabcx', UNCOUNTED)).toBe(true);
    const s = cleanRegex('ABC', false);
    expect(s.ok && s.value.test('xabcx', UNCOUNTED)).toBe(false);
  });
  it.each([
    ['(', 'missing closing )'],
    ['[a', 'missing closing ]'],
    ['a)', 'unexpected )'],
    ['*a', 'missing argument to repetition operator'],
    ['a{1001}', 'invalid repeat count'],
    ['(?=a)', 'invalid or unsupported Perl syntax'],
    ['\\8', 'invalid escape sequence'],
  ])('refuses %j', (pattern, description) => {
    expect(cleanRegex(pattern, false)).toEqual({ ok: false, message: `Enter a valid regular expression: ${description}.` });
  });
});

describe('cleanRegexLazily', () => {
  it('accepts and refuses exactly what cleanRegex does, and its engine matches the same', () => {
    const r = prng(5);
    const atoms = [...'aAbßöİıσ ', '.*', '.', '*', '|', '^', '$', '(', '(?:', ')', '[', ']', '{', '}', '+', '?', '\\', '\u0000', '\ud800'];
    let lazy = 0;
    for (let i = 0; i < 5000; i++) {
      const pattern = Array.from({ length: r.int(8) }, () => r.pick(atoms)).join('');
      const ci = r.chance(0.5);
      const eager = cleanRegex(pattern, ci);
      let compiled = 0;
      const spy = RE2JS.compile;
      RE2JS.compile = ((...args: Parameters<typeof RE2JS.compile>) => {
        compiled++;
        return spy.apply(RE2JS, args);
      }) as typeof RE2JS.compile;
      let got: ReturnType<typeof cleanRegexLazily>;
      try {
        got = cleanRegexLazily(pattern, ci);
      } finally {
        RE2JS.compile = spy;
      }
      if (!eager.ok) {
        expect(got, pattern).toEqual(eager);
        continue;
      }
      expect(got.ok, pattern).toBe(true);
      if (!got.ok) continue;
      if (compiled === 0) lazy++;
      for (const text of ['', 'a', 'ab', 'Aßb', 'xaöb', 'ı', 'İ', 'σ a\nb']) expect(got.value().test(text, UNCOUNTED), `${pattern} ${text}`).toBe(eager.value.test(text, UNCOUNTED));
    }
    expect(lazy).toBeGreaterThan(300); // the lazy path was taken
  });
  it('refuses a pattern over the length bound as cleanRegex does', () => {
    expect(cleanRegexLazily('a'.repeat(1001), false)).toEqual(cleanRegex('a'.repeat(1001), false));
  });
});

describe('the size of a pattern', () => {
  /** calls of RE2JS.compile while `f` runs, with their patterns */
  function compiling<T>(f: () => T): { result: T; patterns: string[] } {
    const patterns: string[] = [];
    const spy = RE2JS.compile;
    RE2JS.compile = ((...args: Parameters<typeof RE2JS.compile>) => {
      patterns.push(args[0]);
      return spy.apply(RE2JS, args);
    }) as typeof RE2JS.compile;
    try {
      return { result: f(), patterns };
    } finally {
      RE2JS.compile = spy;
    }
  }

  it("refuses the issue's patterns, saying how large they are and what is allowed, without compiling them", () => {
    for (const [pattern, size] of [['(?:.{0,99}\\pL){10}\\p{Sm}', 1993], ['(?:.{0,30}[aeiou]){30}\\p{Sm}', 1833], ['.{0,1000}x.{0,1000}', 4003], ['.{0,1000}'.repeat(100), 200002]] as const) {
      for (const ci of [false, true]) {
        const { result, patterns } = compiling(() => cleanRegex(pattern, ci));
        expect(result, pattern).toEqual({ ok: false, message: `This pattern is too large: it compiles to ${size} instructions, at most ${MAX_REGEX_INSTRUCTIONS} are allowed.` });
        expect(result).toEqual(cleanRegexLazily(pattern, ci));
        // only its syntax is checked, on the pattern with every repeat made {1}
        expect(patterns.every((p) => !/\{\d+,\d*\}/.test(p)), patterns.join(' ')).toBe(true);
      }
    }
  });

  it('accepts what people write, up to the limit', () => {
    const words = Array.from({ length: 100 }, (_, i) => `wort${String.fromCharCode(97 + (i % 26))}${i}`).join('|');
    for (const pattern of ['^(seminar|workshop)', '\\d{4}', '.{0,50}', `\\b(${words})\\b`.slice(0, 1000), 'a'.repeat(1000), '[a-z]{1000}', `x{1000}y{${MAX_REGEX_INSTRUCTIONS - 1002}}`]) {
      expect(cleanRegex(pattern, true).ok, pattern).toBe(true);
    }
    expect(cleanRegex(`x{1000}y{${MAX_REGEX_INSTRUCTIONS - 1001}}`, true)).toEqual({ ok: false, message: MESSAGES.regexSize(MAX_REGEX_INSTRUCTIONS + 1, MAX_REGEX_INSTRUCTIONS) });
  });

  it("says what is wrong with a pattern's syntax before how large it is", () => {
    expect(cleanRegex('(.{0,1000}', false)).toEqual({ ok: false, message: 'Enter a valid regular expression: missing closing ).' });
    expect(cleanRegex('.{0,1000}(a{10}){101}', false)).toEqual({ ok: false, message: 'Enter a valid regular expression: invalid repeat count.' });
  });

  it('charges compiling to the parameter, and refuses when that is over the limit', () => {
    const meter = new WorkMeter(Infinity);
    metered(meter, () => cleanRegex('\\pL{3}\\d', false, 'title__regex'));
    expect(meter.used).toBeGreaterThan(0);
    const small = new WorkMeter(10);
    expect(() => metered(small, () => cleanRegex('\\pL{3}\\d', false, 'title__regex'))).toThrow(WorkLimitExceeded);
    expect(() => metered(small, () => cleanRegex('\\pL{3}\\d', false, 'title__regex'))).toThrow(/^title__regex:/);
  });
});
