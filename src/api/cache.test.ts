import { describe, expect, it } from 'vitest';
import { Doorkeeper, ResponseCache } from './cache.ts';

const answer = (body: string) => ({ status: 200, headers: {}, body });

describe('ResponseCache', () => {
  it('returns what was stored and evicts the least recently used entry', () => {
    const cache = new ResponseCache({ entries: 2, bytes: 1e6 });
    cache.set('a', answer('A'));
    cache.set('b', answer('B'));
    expect(cache.get('a')?.body).toBe('A');
    cache.set('c', answer('C'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toBe('A');
    expect(cache.get('c')?.body).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('stays within its byte budget and skips answers too large to be worth it', () => {
    const cache = new ResponseCache({ entries: 100, bytes: 1000 });
    cache.set('huge', answer('x'.repeat(400)));
    expect(cache.get('huge')).toBeUndefined();
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, answer('y'.repeat(50)));
    expect(cache.size).toBeLessThan(20);
    expect(cache.get('k19')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
  });

  it('admits an offered answer only when its key comes back', () => {
    const cache = new ResponseCache({ entries: 10, bytes: 1e6 });
    cache.offer('once', answer('1'));
    expect(cache.get('once')).toBeUndefined();
    cache.offer('once', answer('1'));
    expect(cache.get('once')?.body).toBe('1');
  });

  it('keeps repeated answers while a stream of one-off keys passes by', () => {
    const cache = new ResponseCache({ entries: 10, bytes: 1e6 });
    for (let round = 0; round < 2; round++) for (let i = 0; i < 5; i++) cache.offer(`hot${i}`, answer(`h${i}`));
    for (let i = 0; i < 10_000; i++) cache.offer(`cold${i}`, answer('c'));
    for (let i = 0; i < 5; i++) expect(cache.get(`hot${i}`)?.body).toBe(`h${i}`);
    expect(cache.size).toBe(5);
  });
});

describe('Doorkeeper', () => {
  it('remembers up to its capacity and forgets the oldest first', () => {
    const d = new Doorkeeper(3);
    expect(['a', 'b', 'c'].map((k) => d.check(k))).toEqual([false, false, false]);
    expect(d.check('a')).toBe(true);
    expect(d.check('d')).toBe(false); // forgets a
    expect(d.check('a')).toBe(false); // forgets b
    expect(d.check('c')).toBe(true);
    expect(d.check('b')).toBe(false);
  });
});
