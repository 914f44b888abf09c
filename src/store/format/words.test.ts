import { describe, expect, it } from 'vitest';
import { codePointLength, fold, maxEditsFor, rawWords, wordForms } from './words.ts';

describe('rawWords', () => {
  it('splits on punctuation and blanks', () => {
    expect(rawWords('Univ.-Prof. Dr. Anna Müller-Lüdenscheidt, PhD')).toEqual([
      'Univ', 'Prof', 'Dr', 'Anna', 'Müller', 'Lüdenscheidt', 'PhD',
    ]);
    expect(rawWords('Hörsaal 1 (05.012)')).toEqual(['Hörsaal', '1', '05', '012']);
    expect(rawWords("O'Brien")).toEqual(['O', 'Brien']);
  });

  it('keeps combining marks with their letter (decomposed input)', () => {
    expect(rawWords('Mu\u0308ller Weiß')).toEqual(['Mu\u0308ller', 'Weiß']);
  });

  it('yields nothing for blank or punctuation-only text', () => {
    expect(rawWords('')).toEqual([]);
    expect(rawWords('  .,-()  ')).toEqual([]);
  });
});

describe('fold', () => {
  it('lower-cases and strips diacritics', () => {
    expect(fold('Müller')).toBe('muller');
    expect(fold('ÖZTÜRK')).toBe('ozturk');
    expect(fold('Dvořák')).toBe('dvorak');
    expect(fold('Mu\u0308ller')).toBe('muller');
  });

  it('expands ß and letters NFKD leaves alone', () => {
    expect(fold('Weiß')).toBe('weiss');
    expect(fold('GROẞ')).toBe('gross');
    expect(fold('Łukasz Søren Yılmaz Æsir')).toBe('lukasz soren yilmaz aesir');
  });

  it('folds Turkish dotted capital I without leaving a mark', () => {
    expect(fold('İstanbul')).toBe('istanbul');
  });

  it('folds compatibility forms (ligatures, full-width)', () => {
    expect(fold('ﬁnk Ｍüller')).toBe('fink muller');
  });
});

describe('wordForms', () => {
  it('gives folded and German-transliterated forms for umlauts', () => {
    expect(wordForms('Müller')).toEqual(['muller', 'mueller']);
    expect(wordForms('Öztürk')).toEqual(['ozturk', 'oeztuerk']);
    expect(wordForms('BÄCKER')).toEqual(['backer', 'baecker']);
    expect(wordForms('Mu\u0308ller')).toEqual(['muller', 'mueller']);
  });

  it('gives one form for words without umlauts', () => {
    expect(wordForms('Weiß')).toEqual(['weiss']);
    expect(wordForms('Mueller')).toEqual(['mueller']);
    expect(wordForms('012')).toEqual(['012']);
  });

  it('splits pieces that folding turns into separators and drops empty ones', () => {
    expect(wordForms('½')).toEqual(['1', '2']);
    expect(wordForms('\u0308')).toEqual([]);
  });
});

describe('typo tolerance thresholds', () => {
  it('allows none below 4, one from 4 to 7, two from 8 characters', () => {
    expect([1, 2, 3, 4, 5, 7, 8, 12].map(maxEditsFor)).toEqual([0, 0, 0, 1, 1, 1, 2, 2]);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('𝔄bc')).toBe(3);
    expect(codePointLength('abcd')).toBe(4);
  });
});
