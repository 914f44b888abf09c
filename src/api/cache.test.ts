import { describe, expect, it } from 'vitest';
import { ResponseCache } from './cache.ts';

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
});
