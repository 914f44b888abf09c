// The trigram lists' varint codec against the plain definition trigram-file.ts gives: gaps from
// the previous id (the first from −1), seven bits a byte, low bits first.
import { describe, expect, it } from 'vitest';
import { intersectVarints, readVarints, varintBytes, varintListBytes, writeVarint, writeVarintList } from './trigram-file.ts';

/** The plain definition, byte by byte. */
function plain(list: readonly number[]): number[] {
  const out: number[] = [];
  let last = -1;
  for (const id of list) {
    let gap = id - last;
    last = id;
    for (; gap >= 128; gap = Math.floor(gap / 128)) out.push(128 + (gap % 128));
    out.push(gap);
  }
  return out;
}

describe('trigram varint lists', () => {
  // every width a gap can take, at its edges
  const edges = [1, 0x7f, 0x80, 0x3fff, 0x4000, 0x1fffff, 0x200000, 0xfffffff, 0x10000000, 0x7fffffff];

  it('write each gap in the bytes the plain definition gives, and count them', () => {
    for (const gap of edges) {
      const bytes = new Uint8Array(8);
      const end = writeVarint(bytes, 1, gap);
      expect([...bytes.subarray(1, end)]).toEqual(plain([gap - 1]));
      expect(varintBytes(gap)).toBe(end - 1);
    }
  });

  it('read back the ascending ids a list was written from, after any other list', () => {
    let x = 11;
    const random = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    const lists: number[][] = [[0], [0x7ffffffe], edges.map((_, i) => edges.slice(0, i + 1).reduce((a, b) => a + b, -1)).filter((id) => id < 0x7fffffff)];
    for (let l = 0; l < 50; l++) {
      const ids = new Set<number>();
      const spread = [0x80, 0x4000, 0x200000, 0x7fffffff][l % 4];
      for (let i = random() % 300; i > 0; i--) ids.add(random() % spread);
      lists.push([...ids].sort((a, b) => a - b));
    }
    const bytes = new Uint8Array(lists.reduce((n, list) => n + varintListBytes(list), 0));
    const starts: number[] = [];
    let at = 0;
    for (const list of lists) {
      starts.push(at);
      const end = writeVarintList(bytes, at, list);
      expect([...bytes.subarray(at, end)]).toEqual(plain(list));
      expect(end - at).toBe(varintListBytes(list));
      at = end;
    }
    expect(at).toBe(bytes.length);
    lists.forEach((list, i) => {
      const out = new Uint32Array(list.length + 1).fill(7);
      readVarints(bytes, starts[i], list.length, out);
      expect([...out]).toEqual([...list, 7]);
      // and the ids of another ascending list it holds
      const acc = Uint32Array.from(new Set([...list.filter((_, k) => k % 3 === 0), ...list.map((id) => id + 1), 0x7fffffff]), (id) => id).sort();
      const both = new Uint32Array(acc.length);
      const held = new Set(list);
      expect([...both.subarray(0, intersectVarints(bytes, starts[i], list.length, acc, both))]).toEqual([...acc].filter((id) => held.has(id)));
    });
  });
});
