import { describe, expect, it } from 'vitest';
import { changesBetween, previousPublicFiles } from './changes.ts';

const h = (c: string) => c.repeat(64);

describe('changesBetween', () => {
  it('lists changed, added and removed paths, sorted', () => {
    const before = { 'b.json': h('1'), 'a.json': h('2'), 'gone.json': h('3') };
    const now = { 'b.json': h('1'), 'a.json': h('4'), 'new.json': h('5'), 'c.json': h('6') };
    expect(changesBetween(before, now)).toEqual({ since_previous: true, changed: ['a.json'], added: ['c.json', 'new.json'], removed: ['gone.json'] });
  });
  it('a first build adds everything', () => {
    expect(changesBetween(null, { 'x.json': h('1') })).toEqual({ since_previous: false, changed: [], added: ['x.json'], removed: [] });
  });
  it('a malformed previous list counts as none', () => {
    expect(previousPublicFiles({ public_files: { 'x.json': 'nothex' } } as never)).toBeNull();
    expect(previousPublicFiles({ public_files: ['x'] } as never)).toBeNull();
    expect(previousPublicFiles(null)).toBeNull();
    expect(previousPublicFiles({ public_files: { 'x.json': h('a') } } as never)).toEqual({ 'x.json': h('a') });
  });
});
