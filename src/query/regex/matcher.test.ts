import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { Matcher } from './matcher.ts';
import { programOf } from './program.ts';
import { regexFlags } from './regex.ts';
import { rePattern, reText } from './test-patterns.ts';
import { UNCOUNTED, type Work } from '../work-tally.ts';

function compiled(pattern: string, caseInsensitive: boolean): RE2JS | null {
  try {
    return RE2JS.compile(pattern, regexFlags(caseInsensitive));
  } catch {
    return null;
  }
}

/** A tally that only adds up, with a fixed allowance per stretch (to exercise the matcher's stops). */
class Counter implements Work {
  total = 0;
  constructor(readonly allowance: number) {}
  add(units: number): void {
    this.total += units;
  }
}

describe('Matcher', () => {
  it('answers as RE2JS.test does, with the DFA, through cache resets and with the NFA', () => {
    fc.assert(
      fc.property(rePattern, fc.boolean(), fc.array(reText, { minLength: 1, maxLength: 8 }), (pattern, ci, texts) => {
        const re = compiled(pattern, ci);
        fc.pre(re !== null);
        const program = programOf(re!);
        // the default cache; one so small that it is cleared every few states; none (the NFA)
        const matchers = [new Matcher(program), new Matcher(program, 3_000), new Matcher(program, 1)];
        for (const text of texts) {
          const expected = re!.test(text);
          for (const [k, m] of matchers.entries()) {
            expect(m.test(text, new Counter(k === 0 ? Infinity : 7)), `${JSON.stringify(pattern)} ${ci} ${JSON.stringify(text)} (matcher ${k})`).toBe(expected);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('answers as RE2JS.test does on the typical patterns, Unicode and astral text', () => {
    const patterns = ['^(seminar|workshop)', '\\d{4}', 'foo.*bar', '[a-z]+ung\\b', '(?i)vortrag|lesung', '\\bß', '(?i)STRASSE', '(?i)straße', 'İ', '(?i)ı',
      '^$', '', 'x*', '\\B', '^\\b', '\\b$', '(?m)^b', '(?m)a$', '[^a]', '😀+', '.', '^.$', '\\p{Greek}+ω', '(?i)K', '(?i)ς'];
    const texts = ['', 'a', 'Seminar', 'seminar am 12.3.2024', 'Fortbildung', 'die Bildung ', 'foo und bar', 'STRASSE', 'straße', 'Straẞe', 'İstanbul', 'istanbul', 'ı',
      'a\nb', '\n', 'x', '😀😀', '😀', '\ud83d', '\ude00', 'αβω', 'K', '\u212a', 'Σ', 'σ', 'ς', '_', 'a_b'];
    for (const p of patterns) {
      for (const ci of [false, true]) {
        const re = compiled(p, ci)!;
        const m = new Matcher(programOf(re));
        for (const t of texts) expect(m.test(t, UNCOUNTED), `${p} ${ci} ${JSON.stringify(t)}`).toBe(re.test(t));
      }
    }
  });

  it('counts its work and never steps past its allowance before reporting it', () => {
    const m = new Matcher(programOf(compiled('\\d{4}x', false)!));
    const text = 'a'.repeat(10_000);
    const reports: number[] = [];
    const work: Work = { allowance: 1000, add: (units) => void reports.push(units) };
    expect(m.test(text, work)).toBe(false);
    // the text is read in stretches of at most the allowance, each reported before the next
    expect(Math.max(...reports)).toBeLessThanOrEqual(1000);
    expect(reports.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(text.length);
  });

  it('stops where the tally refuses more work, in the middle of a long text', () => {
    const m = new Matcher(programOf(compiled('(?:.{0,20}\\pL){5}\\p{Sm}', false)!));
    let total = 0;
    const work: Work = {
      allowance: 5_000,
      add(units) {
        total += units;
        if (total > 100_000) throw new Error('over');
      },
    };
    expect(() => m.test('é'.repeat(1_000_000), work)).toThrow('over');
    expect(total).toBeLessThan(110_000);
  });

  it('keeps answering right after its DFA gave up for the NFA', () => {
    const re = compiled('(?:.{0,40}[aeiou]){8}\\p{Sm}', false)!;
    const m = new Matcher(programOf(re), 64 << 10);
    const texts = ['x'.repeat(300), `${'ab'.repeat(100)}∑`, 'aeiouaeiouaeiou∑', `${'a'.repeat(50)}∑`, ''];
    for (let round = 0; round < 3; round++) for (const t of texts) expect(m.test(t, UNCOUNTED)).toBe(re.test(t));
  });
});
