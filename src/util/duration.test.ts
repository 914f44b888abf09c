import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it('reads ms, s, m and h', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(parseDuration(' 300ms ')).toBe(300);
  });

  it('refuses bare numbers, unknown units, zero and more than a day', () => {
    for (const bad of ['30', '', 's', '5 sec', '-1s', '0ms', '0.1ms', '25h', '1e3ms', '1d']) expect(parseDuration(bad), bad).toBeNull();
  });
});
