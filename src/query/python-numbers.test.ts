import { describe, expect, it } from 'vitest';
import { asciiDigits, parsePythonInt, strip } from './python-numbers.ts';

describe('parsePythonInt (Python int())', () => {
  it.each([
    ['١٢', 12n], ['３', 3n], ['٠٠٧', 7n], ['-١', -1n], ['१_०००', 1000n], ['𝟏𝟐', 12n], ['𝟘', 0n], ['၉', 9n], ['꧐', 0n],
    ['\u00a0７\u3000', 7n], ['\u2028 1 \u2029', 1n], ['\x8512\x85', 12n], ['1٢３', 123n],
  ])('%j → %s', (text, value) => {
    expect(parsePythonInt(text)).toBe(value);
  });
  // \x1c-\x1f are str.strip() whitespace but not int()'s; superscripts and Roman numerals are not Nd
  it.each(['\x1c1', '1\x1f', '\ufeff1', '²', 'Ⅻ', '١.٠', '- ١', '١__٢', '_١', '٫'])('%j is not an int', (text) => {
    expect(parsePythonInt(text)).toBeNull();
  });
});

describe('asciiDigits', () => {
  it('maps every script’s digits to 0–9 and leaves the rest alone', () => {
    expect(asciiDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(asciiDigits('０１２３４５６７８９')).toBe('0123456789');
    // the mathematical digits are five runs of ten one after another
    expect(asciiDigits(String.fromCodePoint(...Array.from({ length: 50 }, (_, i) => 0x1d7ce + i)))).toBe('0123456789'.repeat(5));
    expect(asciiDigits('a١b²')).toBe('a1b²');
    expect(asciiDigits('plain 123')).toBe('plain 123');
  });
});

describe('strip (Python str.strip())', () => {
  it('removes Unicode whitespace and \\x1c-\\x1f, not U+FEFF', () => {
    expect(strip('\x1c\u3000a\x85')).toBe('a');
    expect(strip('\ufeffa')).toBe('\ufeffa');
  });
});
