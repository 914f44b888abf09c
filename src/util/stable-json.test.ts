import { describe, expect, it } from 'vitest';
import { stableJson } from './stable-json.ts';

describe('stableJson', () => {
  it('says the same of the same content built in another order, and differs on any change', () => {
    const a = { site: { zone: 'UTC', size: 20 }, pages: new Map([[2, { t: 'b' }], [1, { t: 'a' }]]) };
    const b = { pages: new Map([[1, { t: 'a' }], [2, { t: 'b' }]]), site: { size: 20, zone: 'UTC' } };
    expect(stableJson(a)).toBe(stableJson(b));
    expect(stableJson({ ...b, pages: new Map([[1, { t: 'a' }], [2, { t: 'c' }]]) })).not.toBe(stableJson(a));
    expect(stableJson({ ...b, site: { size: 20, zone: 'UTC', extra: null } })).not.toBe(stableJson(a));
    expect(stableJson({ n: 1n, s: new Set([2, 1]) })).toBe(stableJson({ s: new Set([1, 2]), n: 1n }));
  });
});
