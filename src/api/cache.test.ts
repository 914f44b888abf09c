import { describe, expect, it, vi } from 'vitest';
import { Doorkeeper, FrequencySketch, ResponseCache } from './cache.ts';
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

  it('gives entries asked for a second chance in the order they came, and passes over a key stored again', () => {
    const cache = new ResponseCache({ entries: 3, bytes: 1e6 });
    cache.set('a', answer('A'));
    cache.set('b', answer('B'));
    cache.set('c', answer('C'));
    // stored again: its first entry stays queued, no longer the cache's
    cache.set('a', answer('A2'));
    cache.get('b');
    cache.get('c');
    // b and c asked for: each gets a second chance; the oldest left is a's new entry
    cache.set('d', answer('D'));
    expect(cache.get('a')).toBeUndefined();
    cache.set('e', answer('E'));
    // b and c went behind d when they had their second chance: d, not asked for, goes first
    expect(cache.get('d')).toBeUndefined();
    expect(cache.get('b')?.body).toBe('B');
    expect(cache.get('c')?.body).toBe('C');
    expect(cache.get('e')?.body).toBe('E');
    expect(cache.size).toBe(3);
  });

  it('queues no more entries than twice those it holds, however often a key is stored again while it is not full', () => {
    const cache = new ResponseCache({ entries: 100, bytes: 1e9 });
    cache.set('other', answer('O'));
    for (let i = 0; i < 10_000; i++) cache.set('same', answer(`v${i}`));
    expect(cache.size).toBe(2);
    expect((cache as unknown as { order: { length: number } }).order.length).toBeLessThanOrEqual(2 * cache.size + 1);
    expect(cache.get('same')?.body).toBe('v9999');
    // the order kept: 'other' is still the oldest
    for (let i = 0; i < 99; i++) cache.set(`k${i}`, answer('K'));
    expect(cache.get('other')).toBeUndefined();
    expect(cache.get('same')?.body).toBe('v9999');
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

  it('keeps the answers it holds when more keys than it can hold come round in a cycle', () => {
    // a plain LRU would store (copy) every answer of the cycle and evict it before it comes back
    const cache = new ResponseCache({ entries: 10, bytes: 1e6 });
    const stored: string[] = [];
    const store = cache.set.bind(cache);
    cache.set = (key, response, f) => (stored.push(key), store(key, response, f));
    let hits = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 30; i++) {
        if (cache.get(`k${i}`)) hits++;
        else cache.offer(`k${i}`, answer(`v${i}`));
      }
    }
    expect(cache.size).toBe(10);
    expect(stored.length).toBeLessThan(20);
    // from the second round on, the kept third of the cycle hits each time
    expect(hits).toBeGreaterThanOrEqual(4 * 10);
  });

  it('lets a key that becomes hot displace one that cooled', () => {
    const cache = new ResponseCache({ entries: 2, bytes: 1e6 });
    for (let round = 0; round < 3; round++) for (const k of ['a', 'b']) if (!cache.get(k)) cache.offer(k, answer(k));
    expect(cache.size).toBe(2);
    let requests = 0;
    while (!cache.get('hot') && requests < 32) (requests++, cache.offer('hot', answer('h')));
    expect(cache.get('hot')?.body).toBe('h');
    expect(requests).toBeLessThanOrEqual(6);
  });
});

describe('ResponseCache admission once full of large answers', () => {
  // 32 MB of event pages is ~700 answers of its 8,192 entries: here 10 of 16
  const limits = { entries: 16, bytes: 10 * 1_100 };
  const page = (key: string) => answer(key.padEnd(500, '.'));
  /** requests of `key` until one hits (at most `most`) */
  const untilKept = (cache: ResponseCache, key: string, most: number, between?: () => void) => {
    let requests = 0;
    for (; requests < most; requests++) {
      between?.();
      if (cache.get(key)) return requests;
      cache.offer(key, page(key));
    }
    return requests;
  };
  const fill = (cache: ResponseCache, prefix: string) => {
    for (let round = 0; round < 2; round++) for (let i = 0; i < 20; i++) if (!cache.get(`${prefix}${i}`)) cache.offer(`${prefix}${i}`, page(`${prefix}${i}`));
  };

  it('keeps a newly repeated answer soon after an answer that was hot has cooled', () => {
    // the bench's passes: one URL over and over, distinct URLs, then another URL over and over
    const cache = new ResponseCache(limits);
    expect(untilKept(cache, 'first', 100)).toBeLessThanOrEqual(2);
    for (let i = 0; i < 100; i++) cache.get('first');
    fill(cache, 'distinct');
    expect(cache.size).toBe(10);
    // answers asked for a few times each, until the cooled one is the oldest entry
    for (let i = 0; i < 12; i++) untilKept(cache, `warm${i}`, 4);
    expect(untilKept(cache, 'next', 100)).toBeLessThanOrEqual(6);
  });

  it('halves its counts once per row of the sketch at most, however few answers it holds', () => {
    // each halving passes over every counter: a window of ten sightings per answer held made a
    // cache of one answer pass over them every eighty hits
    const cache = new ResponseCache({ entries: 1_000, bytes: 1e6 });
    const age = vi.spyOn(FrequencySketch.prototype as unknown as { age: () => void }, 'age');
    untilKept(cache, 'one', 4);
    for (let i = 0; i < 100_000; i++) cache.get('one');
    // 8,000 keys: rows of 8,192 counters, halved every 4,096 sightings or more after the first
    expect(age.mock.calls.length).toBeLessThanOrEqual(100_000 / 4_096 + 1);
    age.mockRestore();
  });

  it('weighs a candidate against the answer eviction would drop, not against a hot one it keeps', () => {
    // a hot answer asked for between every other request, while it is the oldest entry
    const cache = new ResponseCache(limits);
    untilKept(cache, 'hot', 100);
    for (let i = 0; i < 100; i++) cache.get('hot');
    fill(cache, 'distinct');
    expect(cache.get('hot')).toBeDefined();
    expect(untilKept(cache, 'new', 100, () => cache.get('hot'))).toBeLessThanOrEqual(6);
    expect(cache.get('hot')).toBeDefined();
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

  it('keeps thousands of small answers within its bytes, each counted by its block', () => {
    const cache = new ResponseCache(undefined, true);
    // autocomplete answers: 2–3 KiB each, on 4 KiB blocks of the pool
    const small = (i: number) => ({ status: 200, headers: {}, body: takeBuffer(2_200 + (i % 800)).fill(97) });
    for (let i = 0; i < 6_000; i++) cache.offer(`/v1/api/autocomplete/?q=${i}`, small(i));
    for (let i = 0; i < 6_000; i++) cache.offer(`/v1/api/autocomplete/?q=${i}`, small(i));
    expect(cache.size).toBe(6_000);
    for (let i = 0; i < 6_000; i++) expect(cache.get(`/v1/api/autocomplete/?q=${i}`)).toBeDefined();
    // a 32 MB budget of 4 KiB blocks and their keys: fewer than 8,192 at once
    for (let i = 6_000; i < 9_000; i++) {
      cache.offer(`/v1/api/autocomplete/?q=${i}`, small(i));
      cache.offer(`/v1/api/autocomplete/?q=${i}`, small(i));
    }
    expect(cache.size).toBeLessThan(8_192);
    expect(cache.size).toBeGreaterThan(7_500);
  });

  it('keeps the answers it holds when keys come round in a cycle, weighing each offer by the block it would hold', () => {
    // bodies of 3,000 and 5,000 bytes: 4 and 8 KiB blocks, so eviction leaves room a body's own
    // length fits in; weighed by that length, every offer of the cycle passed for one that fits
    const cache = new ResponseCache({ entries: 1_000, bytes: 60 * 1024 }, true);
    const stored: string[] = [];
    const store = cache.set.bind(cache);
    cache.set = (key, response, f) => (stored.push(key), store(key, response, f));
    let hits = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 30; i++) {
        if (cache.get(`k${i}`)) {
          hits++;
          continue;
        }
        const body = takeBuffer(i % 2 === 0 ? 3_000 : 5_000);
        cache.offer(`k${i}`, { status: 200, headers: {}, body });
        // written: the server gives back a body the cache did not take over
        releaseBuffer(body);
      }
    }
    expect(stored.length).toBeLessThan(20);
    expect(hits).toBeGreaterThanOrEqual(4 * cache.size);
  });

  it('counts a kept body by its whole block', () => {
    const cache = new ResponseCache({ entries: 100, bytes: 8 * 60_000 }, true);
    for (let i = 0; i < 8; i++) cache.set(`p${i}`, { status: 200, headers: {}, body: takeBuffer(33_000) });
    // 64 KiB blocks: seven fit in the budget, not eight (eight 33 KB bodies would)
    expect(cache.size).toBe(7);
  });
});

describe('FrequencySketch', () => {
  it('counts sightings per key, and halves every count once its window is full', () => {
    const sketch = new FrequencySketch(16);
    const a = 0x1234567, b = -0x7654321;
    expect([1, 2, 3].map(() => sketch.add(a))).toEqual([1, 2, 3]);
    expect(sketch.count(b)).toBe(0);
    expect(sketch.add(b)).toBe(1);
    // 16 counters a row, a window of 160 sightings: the 160th halves a's 3 to 1
    for (let i = 4; i < 160; i++) sketch.add(b);
    expect(sketch.count(a)).toBe(1);
    expect(sketch.count(b)).toBe(7);
  });

  it('halves every count after a shorter window once its owner sets one, never shorter than a row', () => {
    // 16 counters a row: a window of 20 sightings, then of 16 however short it is asked to be
    const sketch = new FrequencySketch(16);
    sketch.window = 20;
    for (let i = 0; i < 19; i++) sketch.add(7);
    expect(sketch.count(7)).toBe(15);
    sketch.add(7);
    expect(sketch.count(7)).toBe(7);
    sketch.window = 1;
    // the halving left 10 of the window counted: the next comes 6 sightings on, not 1
    for (let i = 0; i < 5; i++) sketch.add(7);
    expect(sketch.count(7)).toBe(12);
    sketch.add(7);
    expect(sketch.count(7)).toBe(6);
  });

  it('stops counting at 15, so that a hot key can be overtaken once the window moves on', () => {
    const sketch = new FrequencySketch(1024);
    for (let i = 0; i < 100; i++) sketch.add(42);
    expect(sketch.count(42)).toBe(15);
  });
});

describe('Doorkeeper', () => {
  it('remembers exactly the last `capacity` distinct fingerprints, as a ring over a set would', () => {
    for (const capacity of [1, 3, 8, 100]) {
      const keeper = new Doorkeeper(capacity);
      const ring: number[] = [];
      const seen = new Set<number>();
      let state = capacity;
      // few distinct values, so fingerprints come back, collide in their homes and are forgotten
      const next = () => ((state = (Math.imul(state, 1103515245) + 12345) | 0) >>> 8) % (capacity * 3) - capacity;
      for (let step = 0; step < 5_000; step++) {
        const f = next() * 0x10001;
        const expected = seen.has(f);
        if (!expected) {
          if (ring.length === capacity) seen.delete(ring.shift()!);
          ring.push(f);
          seen.add(f);
        }
        expect(keeper.check(f), `capacity ${capacity}, step ${step}`).toBe(expected);
      }
    }
  });
});
