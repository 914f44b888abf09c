import fc from 'fast-check';
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_WORK_LIMIT } from '../work-budget.ts';
import { countInstructions, foldedWidth, MAX_FOLD, MIN_FOLD } from './program-size.ts';
import { compileRegex, regexFlags } from './regex.ts';
import { adversarialPattern, underLimit } from './test-adversarial-patterns.ts';
import { rePattern } from './test-patterns.ts';

type Compiled = { size: number } | { error: string };

function compile(pattern: string): Compiled {
  try {
    return { size: RE2JS.compile(pattern, regexFlags(false)).programSize() };
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) return { error: e.getDescription() };
    throw e;
  }
}

/** Patterns whose repeats stay small enough to compile quickly, with syntax errors now and then. */
const smallPattern = fc.oneof(
  rePattern,
  fc.string({ unit: fc.constantFrom(...'()[]{}*+?|^$.\\-,:=!<>aAzZ09 üpPLQEx'.split(''), '{2}', '{1,3}', '{0}', '{01}', '{2,}', '\\pL', '\\Q', '\\E', '(?i)', '(?:', '[:alpha:]'), maxLength: 30 }),
);

describe('countInstructions', () => {
  it('never counts fewer instructions than re2js compiles, and exactly as many without alternation', () => {
    fc.assert(
      fc.property(smallPattern, (pattern) => {
        const counted = countInstructions(pattern, false);
        const c = compile(pattern);
        if ('error' in c) return;
        expect(counted.invalidRepeat, pattern).toBe(false);
        expect(counted.instructions, pattern).toBeGreaterThanOrEqual(c.size);
        // re2js drops x{0} from a sequence, where it is counted as a NOP (see expand)
        if (!pattern.includes('|') && !/\\[QE]|\{0(,0)?\}/.test(pattern)) expect(counted.instructions, pattern).toBe(c.size);
      }),
      { numRuns: 5000 },
    );
  });

  it('counts the adversarial patterns as re2js compiles them (or flags the repeats re2js refuses)', () => {
    fc.assert(
      fc.property(adversarialPattern, (pattern) => {
        const counted = countInstructions(pattern, false);
        // big counts compile slowly: only those within reach are compiled to compare
        if (counted.instructions > 20_000 && !counted.invalidRepeat) return;
        const c = compile(pattern);
        if ('error' in c) expect(counted.invalidRepeat || c.error !== 'invalid repeat count', `${pattern}: ${c.error}`).toBe(true);
        else expect(counted.instructions, pattern).toBeGreaterThanOrEqual(c.size);
      }),
      { numRuns: 500 },
    );
  });

  it('reads any text at all without throwing, in time linear in its length', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 1000 }), (text) => {
        expect(countInstructions(text, false).instructions).toBeGreaterThanOrEqual(3);
      }),
    );
    expect(countInstructions('('.repeat(1000), false).instructions).toBe(2003);
  });

  it('flags exactly the repeat counts re2js refuses as invalid', () => {
    for (const [pattern, invalid] of [
      ['a{1000}', false], ['a{1001}', true], ['a{2,1}', true], ['(a{10}){100}', false], ['(a{10}){101}', true], ['((a{2}){2}){250}', false],
      ['((a{2}){2}){251}', true], ['(a{0}){1000}', false], ['(a{0,}){1001}', true], ['(?:a{0}){2000}', true], ['a{,3}', false], ['a{01}', false],
    ] as const) {
      expect(countInstructions(pattern, false).invalidRepeat, pattern).toBe(invalid);
      const c = compile(pattern);
      expect('error' in c && c.error === 'invalid repeat count', pattern).toBe(invalid);
    }
  });

  it("counts the issue's patterns as re2js does, without compiling them", () => {
    expect(countInstructions('(?:.{0,99}\\pL){10}\\p{Sm}', false).instructions).toBe(1993);
    expect(countInstructions('(?:.{0,30}[aeiou]){30}\\p{Sm}', false).instructions).toBe(1833);
    expect(countInstructions('.{0,1000}x.{0,1000}', false).instructions).toBe(4003);
    // 0.7 s and 250 MB for re2js: counted in microseconds
    expect(countInstructions('.{0,1000}'.repeat(111), false).instructions).toBe(222_002);
  });

  it('gives the pattern with its repeats made {1}, whose syntax errors are the same', () => {
    expect(countInstructions('(a{2,}b){3}c{0}x{5,9}?', false).reduced).toBe('(a{1}b){1}c{1}x{1}?');
    for (const pattern of ['(.{0,1000}', '.{0,1000}[a', 'x{2}{3}', '.{0,1000}\\8']) {
      const original = compile(pattern);
      expect('error' in original && original.error).toBe((compile(countInstructions(pattern, false).reduced) as { error: string }).error);
    }
  });
});

describe('the parser work a pattern costs', () => {
  /** A code point as a class may hold it: itself, `\x{…}`, or `\xHH` (below 256). */
  const written = (cp: number, form: number) =>
    form === 0 ? String.fromCodePoint(cp) : form === 1 || cp > 0xff ? `\\x{${cp.toString(16)}}` : `\\x${cp.toString(16).padStart(2, '0')}`;
  const point = fc.oneof(
    fc.integer({ min: 0x20, max: 0x7e }).filter((c) => !'\\]-^['.includes(String.fromCharCode(c))),
    fc.integer({ min: 0xa0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff),
  );

  it("counts the code points of a class range re2js folds one by one, by the values re2js reads its ends as", () => {
    fc.assert(
      fc.property(point, point, fc.nat(2), fc.nat(2), (a, b, fa, fb) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const pattern = `[${written(lo, fa)}-${written(hi, fb)}]`;
        const re = RE2JS.compile(pattern, regexFlags(false));
        expect(re.matches(String.fromCodePoint(lo)) && re.matches(String.fromCodePoint(hi)), pattern).toBe(true);
        expect(countInstructions(pattern, true).foldedRunes, pattern).toBe(foldedWidth(lo, hi));
        expect(countInstructions(`(?i)${pattern}`, false).foldedRunes, pattern).toBe(foldedWidth(lo, hi));
        expect(countInstructions(pattern, false).foldedRunes, pattern).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts ranges past the folding code points, or spanning all of them, as re2js adds them: whole', () => {
    expect(foldedWidth(0, 0x40)).toBe(0);
    expect(foldedWidth(0, 0x10ffff)).toBe(0);
    expect(foldedWidth(MAX_FOLD + 1, 0x10ffff)).toBe(0);
    expect(foldedWidth(0x62, 0x10ffff)).toBe(MAX_FOLD - 0x62 + 1);
    expect(foldedWidth(0, MAX_FOLD - 1)).toBe(MAX_FOLD - MIN_FOLD);
    expect(countInstructions('[\\101-\\132\\x{e0}-\\x{ff}\\d\\pL]', true)).toMatchObject({ foldedRunes: 26 + 32, tables: 1, folds: true });
    expect(countInstructions('\\pL[^\\PN]x', false)).toMatchObject({ foldedRunes: 0, tables: 2, folds: false });
  });

  it('refuses a pattern whose folding would cost seconds before re2js parses it', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    try {
      // 996 characters; re2js would fold 125,154 code points for each of its 166 classes
      const r = underLimit(DEFAULT_WORK_LIMIT, () => compileRegex('[b-\\x{10FFFF}]'.repeat(166), true, 'title__iregex'));
      expect(r.refused?.what).toBe('title__iregex');
      expect(compile).not.toHaveBeenCalled();
      expect(underLimit(DEFAULT_WORK_LIMIT, () => compileRegex('\\pL'.repeat(150), true, 'teaser__iregex')).refused?.what).toBe('teaser__iregex');
      expect(underLimit(DEFAULT_WORK_LIMIT, () => compileRegex('(?i)[a-zäöü]+ung\\b', false, 'title__regex')).refused).toBeNull();
    } finally {
      compile.mockRestore();
    }
  });
});
