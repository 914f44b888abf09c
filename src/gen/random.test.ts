import { describe, expect, it } from 'vitest';
import { Random } from './random.ts';

describe('Random', () => {
  it('is deterministic per seed and label and stays in range', () => {
    const draw = (r: Random) => Array.from({ length: 50 }, () => r.int(-3, 3));
    expect(draw(new Random(42))).toEqual(draw(new Random(42)));
    expect(draw(new Random(42))).not.toEqual(draw(new Random(43)));
    expect(draw(Random.derive(1, 'a'))).not.toEqual(draw(Random.derive(1, 'b')));
    const values = draw(new Random(7));
    expect(Math.min(...values)).toBe(-3);
    expect(Math.max(...values)).toBe(3);
  });

  it('produces the same first values everywhere (pinned)', () => {
    // Guards the byte-identical output across machines: any change here changes all content.
    const r = new Random(1);
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual([1561213105, 1672659099, 4017275699]);
  });
});
