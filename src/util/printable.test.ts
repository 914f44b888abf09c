import { describe, expect, it } from 'vitest';
import { printable } from './printable.ts';

describe('printable', () => {
  it('escapes control characters as JSON does and keeps the rest', () => {
    expect(printable('events/a\nb.yaml')).toBe('events/a\\nb.yaml');
    expect(printable('\x1b[31mred\x1b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(printable('tab\there\r')).toBe('tab\\there\\r');
    expect(printable('csi\x9bx del\x7f')).toBe('csi\\u009bx del\\u007f');
    expect(printable('Übung – café 🎉 \\ "q"')).toBe('Übung – café 🎉 \\ "q"');
    expect(printable('line\u2028sep')).toBe('line\\u2028sep');
    expect(printable('lone \ud800 surrogate')).toBe('lone \\ud800 surrogate');
  });
});
