import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { FIXUPS, fixupsOf, fold, foldSafeInCaseInsensitiveRegex } from './fold.ts';

describe('fold', () => {
  it("writes out the fix-ups the running engine's Unicode tables give", () => {
    expect(FIXUPS).toEqual(fixupsOf());
  });
  it('lower-cases with full Unicode and keeps ß', () => {
    expect(fold('ÖSTERREICH')).toBe('österreich');
    expect(fold('WEIß')).toBe('weiß');
    expect(fold('WEISS')).toBe('weiss');
    expect(fold('ẞ')).toBe('ß');
    expect(fold('İ')).toBe('i̇');
  });
  it('merges letters that share an upper case, as UPPER() does', () => {
    expect(fold('ΟΔΟΣ')).toBe('οδοσ');
    expect(fold('οδος')).toBe('οδοσ');
    expect(fold('ſ')).toBe('s');
    expect(fold('µ')).toBe(fold('Μ'));
    expect(fold('K')).toBe('k'); // Kelvin sign
  });
  it('is context-free: fold(a + b) = fold(a) + fold(b)', () => {
    const samples = ['ΟΔΟΣ', 'Σ', 'ΣΑ', 'aΣ', 'İx', 'Straße', 'ǅ', 'ΐ', 'ﬀ', '𐐀', 'Maß', 'ς'];
    for (const a of samples) for (const b of samples) expect(fold(a + b)).toBe(fold(a) + fold(b));
  });
});

describe('foldSafeInCaseInsensitiveRegex', () => {
  it('accepts letters whose whole RE2 case orbit folds together', () => {
    // check the claim against re2js itself for all of Latin-1 and a few others
    const chars = [...Array(0x250).keys()].map((c) => String.fromCharCode(c)).concat(['ẞ', 'Σ', 'ς', 'K', 'Å', 'ǅ']);
    const targets = [...Array(0x2200).keys()].map((c) => String.fromCharCode(c)).filter((c) => !/[\ud800-\udfff]/.test(c));
    for (const ch of chars) {
      if (!foldSafeInCaseInsensitiveRegex(ch)) continue;
      const re = RE2JS.compile(RE2JS.quote(ch), RE2JS.CASE_INSENSITIVE);
      for (const t of targets) if (re.test(t)) expect(fold(t), `${ch} ~ ${t}`).toBe(fold(ch));
    }
  });
  it('refuses the few whose orbit folds apart', () => {
    expect(foldSafeInCaseInsensitiveRegex('\u0390')).toBe(false);
    expect(RE2JS.compile('\u0390', RE2JS.CASE_INSENSITIVE).test('\u1fd3')).toBe(true);
    expect(fold('\u0390')).not.toBe(fold('\u1fd3'));
    expect(foldSafeInCaseInsensitiveRegex('ß')).toBe(true);
    expect(foldSafeInCaseInsensitiveRegex('a')).toBe(true);
  });
});
