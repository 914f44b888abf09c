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
});
