import { describe, expect, it } from 'vitest';
import { startOfYear } from './offsets.ts';
import { END_INSTANT, FIRST_INSTANT, isWritable } from './range.ts';

const HOUR = 3_600_000;

describe('isWritable', () => {
  it('takes instants whose years in UTC and in the zone are 1…9999', () => {
    expect(isWritable(Date.UTC(2025, 4, 9), 'Europe/Berlin')).toBe(true);
    expect(isWritable(FIRST_INSTANT, 'Europe/Berlin')).toBe(true); // 00:53:28 local
    expect(isWritable(END_INSTANT - 1, 'America/New_York')).toBe(true); // 18:59 local
  });
  it('refuses years outside in UTC', () => {
    expect(isWritable(FIRST_INSTANT - 1, 'UTC')).toBe(false);
    expect(isWritable(END_INSTANT, 'UTC')).toBe(false);
    expect(isWritable(startOfYear(-5), 'UTC')).toBe(false);
    expect(isWritable(Number.NaN, 'UTC')).toBe(false);
  });
  it('refuses years outside in the zone', () => {
    expect(isWritable(FIRST_INSTANT + HOUR, 'America/New_York')).toBe(false); // 0000-12-31 local
    expect(isWritable(END_INSTANT - HOUR, 'Europe/Berlin')).toBe(false); // 10000-01-01 local
  });
});
