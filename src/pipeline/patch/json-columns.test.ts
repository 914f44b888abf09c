import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../util/mulberry32.ts';
import { columnArrays, ShapeError, spliceColumns } from './json-columns.ts';

type Row = { id: number; title: string | null; tags: number[]; when: number | null };
const file = (rows: readonly Row[]) =>
  Buffer.from(JSON.stringify({ id: rows.map((r) => r.id), text: { title: rows.map((r) => r.title) }, tags: rows.map((r) => r.tags), time: { when: rows.map((r) => r.when) } }));

const TITLES = ['plain', 'with "quotes"', 'back\\slash\\', 'ends with \\"', 'ünï\u2028cødé', '', '\\\\"', 'a,b]c}d{[', null];

describe('spliceColumns', () => {
  it('gives the bytes JSON.stringify gives for any new row order', () => {
    const rnd = mulberry32(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
    const row = (id: number): Row => ({ id, title: pick(TITLES), tags: rnd() < 0.3 ? [] : [id, id + 1], when: rnd() < 0.2 ? null : rnd() * 1e12 });
    for (let round = 0; round < 200; round++) {
      const old = Array.from({ length: Math.floor(rnd() * 12) }, (_, i) => row(i));
      const fresh = Array.from({ length: Math.floor(rnd() * 4) }, (_, i) => row(100 + i));
      // keep a random subset of the old rows in order, insert the new ones anywhere
      const order: number[] = old.map((_, i) => i).filter(() => rnd() < 0.8);
      fresh.forEach((_, j) => order.splice(Math.floor(rnd() * (order.length + 1)), 0, -(j + 1)));
      const want = file(order.map((i) => (i >= 0 ? old[i] : fresh[-i - 1])));
      expect(spliceColumns(file(old), old.length, file(fresh), fresh.length, Int32Array.from(order)).toString()).toBe(want.toString());
    }
  });

  it('refuses files of another shape', () => {
    expect(() => columnArrays(Buffer.from('{"a":[1,2]}'), 3)).toThrow(ShapeError);
    expect(() => columnArrays(Buffer.from('{"a":[1,2],"b":"x"}'), 2)).toThrow(ShapeError);
    expect(() => columnArrays(Buffer.from('{"a":["unterminated]}'), 1)).toThrow(ShapeError);
    expect(() => spliceColumns(Buffer.from('{"a":[1]}'), 1, Buffer.from('{"b":[2]}'), 1, Int32Array.from([0, -1]))).toThrow(ShapeError);
  });
});
