import { describe, expect, it } from 'vitest';
import { prng, randomText } from '../../query/events/test-random.ts';
import { bitmapWords } from '../format/bitmap.ts';
import { BITMAP, BOUNDARY, OTHER, UNINDEXED, VARINT, type TrigramData } from '../format/trigram-file.ts';
import { buildTrigrams, countUnits, countUtf8Units } from './trigram-builder.ts';

/** The index as trigram-file.ts describes it, made the plainest way: lists in maps, then encoded. */
function reference(folded: readonly string[], budget: number): TrigramData {
  const n = folded.length;
  const freq = new Map<number, number>();
  for (const s of folded) for (let i = 0; i < s.length; i++) freq.set(s.charCodeAt(i), (freq.get(s.charCodeAt(i)) ?? 0) + 1);
  const used = [...freq.keys()].sort((a, b) => freq.get(b)! - freq.get(a)! || a - b);
  const codeOf = new Uint8Array(0x10000).fill(OTHER);
  used.slice(0, OTHER - 1).forEach((c, i) => (codeOf[c] = i + 1));
  const lists = new Map<number, number[]>();
  folded.forEach((s, v) => {
    if (s.length === 0) return;
    const codes = [BOUNDARY, ...[...Array(s.length).keys()].map((i) => codeOf[s.charCodeAt(i)]), BOUNDARY];
    for (let i = 2; i < codes.length; i++) {
      const t = (codes[i - 2] << 14) | (codes[i - 1] << 7) | codes[i];
      const list = lists.get(t) ?? lists.set(t, []).get(t)!;
      if (list[list.length - 1] !== v) list.push(v);
    }
  });
  const varint = (list: number[]) => {
    const out: number[] = [];
    let prev = -1;
    for (const v of list) {
      let gap = v - prev;
      prev = v;
      while (gap >= 0x80) {
        out.push((gap & 0x7f) | 0x80);
        gap >>>= 7;
      }
      out.push(gap);
    }
    return out;
  };
  const keys = [...lists.keys()].sort((a, b) => a - b);
  const counts = keys.map((t) => lists.get(t)!.length);
  const words = bitmapWords(n);
  const kinds = new Uint8Array(keys.length);
  const starts = new Uint32Array(keys.length);
  const varintBytes: number[] = [];
  const bitmaps: number[][] = [];
  let spent = 0;
  let covered = 0;
  const byRarity = keys.map((_, k) => k).sort((a, b) => counts[a] - counts[b] || a - b);
  const chosen: { k: number; bitmap: boolean }[] = [];
  for (const k of byRarity) {
    const bytes = varint(lists.get(keys[k])!).length;
    const bitmap = bytes * 2 > words * 4;
    const cost = bitmap ? words * 4 : bytes;
    if (spent + cost > budget) break;
    spent += cost;
    covered += counts[k];
    chosen.push({ k, bitmap });
  }
  for (const { k, bitmap } of chosen) {
    const list = lists.get(keys[k])!;
    if (bitmap) {
      kinds[k] = BITMAP;
      starts[k] = bitmaps.length;
      const bits = new Array(words).fill(0);
      for (const v of list) bits[v >>> 5] |= 1 << (v & 31);
      bitmaps.push(bits);
    } else {
      kinds[k] = VARINT;
      starts[k] = varintBytes.length;
      varintBytes.push(...varint(list));
    }
  }
  const total = counts.reduce((a, b) => a + b, 0);
  return {
    valueCount: n,
    codeOf,
    keys: Uint32Array.from(keys),
    counts: Uint32Array.from(counts),
    kinds,
    starts,
    varints: Uint8Array.from(varintBytes),
    bitmaps: Int32Array.from(bitmaps.flat()),
    coverage: total === 0 ? 1 : covered / total,
  };
}

describe('buildTrigrams', () => {
  it('makes the index the plainest construction makes, for any budget', () => {
    const r = prng(5);
    const kinds = new Set<string>();
    for (let round = 0; round < 40; round++) {
      const pool = Array.from({ length: 1 + r.int(30) }, () => randomText(r, 30));
      // repeats, empty values, a small alphabet (bit sets), and more code units than codes (OTHER)
      const wide = Array.from({ length: 200 }, (_, i) => String.fromCharCode(0x400 + i));
      const folded = Array.from({ length: r.int(300) }, () => (r.chance(0.3) ? r.pick(pool) : r.chance(0.2) ? randomText(r, 20, wide) : randomText(r, 40, [...'ab c'])));
      const budget = r.pick([0, 10, 200, 5_000, 1 << 20]);
      const built = buildTrigrams(folded, budget);
      const want = reference(folded, budget);
      for (const key of Object.keys(want) as (keyof TrigramData)[]) {
        const [a, b] = [built[key], want[key]];
        if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) expect(Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength)), key).toBe(true);
        else expect(a, key).toBe(b);
      }
      if (budget === 0) expect(built.kinds.every((k) => k === UNINDEXED)).toBe(true);
      kinds.add(built.kinds.join(''));
    }
    // every kind of list was made
    expect([...kinds].join('')).toMatch(new RegExp(`(?=.*${VARINT})(?=.*${BITMAP})(?=.*${UNINDEXED})`));
  });
});

describe('countUtf8Units', () => {
  it('counts the code units of a string from its UTF-8 as countUnits counts them from the string', () => {
    const text = 'Wien ärztekammer \u00ad Zürich \u20ac \ud83d\ude00 feier \u{10348}';
    const [fromString, fromBytes] = [new Float64Array(0x10000), new Float64Array(0x10000)];
    countUnits(text, fromString, 1);
    countUtf8Units(Buffer.from(text, 'utf8'), fromBytes);
    expect(fromBytes).toEqual(fromString);
  });
});
