import { describe, expect, it } from 'vitest';
import { requestShapes } from './request-costs.ts';

describe('request shapes', () => {
  it('are one shape whatever order the names come in, their names sorted as sort() sorts them', () => {
    const shapes = requestShapes();
    const names = ['title__icontains', 'Title', 'start__gte', 'limit', '_x', 'start', 'a.b', 'Z9', 'start__gt'];
    // every name taken: the answer ignored none of them
    expect(shapes.learn(names.map((n) => `${n}=1`).join('&'), 200, undefined)).toBe(true);
    const sorted = [...names].sort();
    for (let round = 0; round < 20; round++) {
      const order = [...names];
      for (let i = order.length - 1; i > 0; i--) {
        const j = (i * 7 + round * 13) % (i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      const shape = shapes.shapeOf('GET', '/v1/cms/event/', order.map((n) => `${n}=1`).join('&'), undefined);
      expect(shape.key.endsWith(` ${sorted.join('&')}`), shape.key).toBe(true);
    }
  });

  it('sort a query of thousands of names, repeated and without `=`, as sort() does', () => {
    const shapes = requestShapes();
    const names = ['title__iregex', 'start__gte', 'limit', 'id', 'categories'];
    expect(shapes.learn(names.map((n) => `${n}=1`).join('&'), 200, undefined)).toBe(true);
    // descending runs: each name inserted would move past every one before it
    const many = names.flatMap((n) => Array.from({ length: 1000 }, () => n)).sort().reverse();
    for (const query of [many.join('&'), many.map((n) => `${n}=1`).join('&'), `${many.slice(0, 2500).join('&')}&${many.slice(2500).map((n) => `${n}=`).join('&')}`]) {
      const shape = shapes.shapeOf('GET', '/v1/cms/event/', query, undefined);
      // (the key is cut at its most characters: its names are compared as far as it goes)
      const keyNames = shape.key.replace(/^GET \/v1\/cms\/event\/ \d* /, '');
      expect(keyNames.length, query.slice(0, 40)).toBeGreaterThan(100);
      expect(keyNames, query.slice(0, 40)).toBe([...many].sort().join('&').slice(0, keyNames.length));
    }
  });
});
