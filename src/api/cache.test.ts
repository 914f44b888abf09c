import { describe, expect, it } from 'vitest';
import { Doorkeeper, ResponseCache } from './cache.ts';
import { isKept, isPooled, releaseBuffer, takeBuffer } from '../store/read/page-buffers.ts';
import { BodyChunks } from './body.ts';

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

describe('ResponseCache on the page pool (the server\'s)', () => {
  it('takes a lent page over, copies chunks onto a kept block, and gives blocks back when it drops them', () => {
    const cache = new ResponseCache({ entries: 2, bytes: 1e7 }, true);
    const page = takeBuffer(40_000).fill(0x61);
    cache.set('page', { status: 200, headers: {}, body: page });
    expect(isKept(page)).toBe(true);
    const run = takeBuffer(3_000).fill(0x62);
    cache.set('spliced', { status: 200, headers: {}, body: new BodyChunks([Buffer.from('['), run.subarray(0, 100), Buffer.from(']')]) });
    const spliced = cache.get('spliced')!.body as Buffer;
    expect(isKept(spliced)).toBe(true);
    expect(spliced.toString()).toBe(`[${'b'.repeat(100)}]`);
    // a plain buffer of its own is kept as it is, on no block
    const own = Buffer.from('{"count":0}');
    cache.set('own', { status: 200, headers: {}, body: own });
    expect(cache.get('own')?.body).toBe(own);
    expect(isPooled(own)).toBe(false);
    // 'page' was the least recently used: dropped, its block back in the pool
    expect(cache.get('page')).toBeUndefined();
    expect(isKept(page)).toBe(false);
    expect(takeBuffer(40_000).buffer).toBe(page.buffer);
  });

  it('gives a page it took over back to the server when it drops it at once', () => {
    const cache = new ResponseCache({ entries: 1, bytes: 1e7 }, true);
    cache.set('hot', { status: 200, headers: {}, body: takeBuffer(9_000) });
    cache.get('hot');
    // the one entry is in use: the new answer is dropped by the same call that stores it
    const page = takeBuffer(9_000);
    cache.set('new', { status: 200, headers: {}, body: page });
    expect(cache.get('new')).toBeUndefined();
    expect(isKept(page)).toBe(false);
    // still lent to its answer: not reused before the server releases it after writing
    expect(takeBuffer(9_000).buffer).not.toBe(page.buffer);
    releaseBuffer(page);
    expect(takeBuffer(9_000).buffer).toBe(page.buffer);
  });

  it('counts a kept body by its whole block', () => {
    const cache = new ResponseCache({ entries: 100, bytes: 8 * 60_000 }, true);
    for (let i = 0; i < 8; i++) cache.set(`p${i}`, { status: 200, headers: {}, body: takeBuffer(33_000) });
    // 64 KiB blocks: seven fit in the budget, not eight (eight 33 KB bodies would)
    expect(cache.size).toBe(7);
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
