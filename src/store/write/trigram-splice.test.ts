// The trigram index spliced from the previous one is buildTrigrams's of the new values, to the
// byte, or null (built whole): values renumbered, added (first, last, between) and gone, under
// budgets that leave lists out and budgets that hold them all.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../util/mulberry32.ts';
import { buildTrigrams } from './trigram-builder.ts';
import { splicedTrigrams } from './trigram-splice.ts';
import type { TrigramData } from '../format/trigram-file.ts';

/**
 * Words of a skewed alphabet, each letter half as common as the one before (as in folded text, a
 * value more or less does not reorder the letters by frequency: the alphabet stays).
 */
function value(random: () => number, tag: string): string {
  const letter = () => 'enirstad'[Math.min(7, Math.floor(-Math.log2(random())))];
  const word = () => Array.from({ length: 2 + Math.floor(random() * 7) }, letter).join('');
  return `${Array.from({ length: 1 + Math.floor(random() * 5) }, word).join(' ')}${random() < 0.3 ? ` ${tag}` : ''}`;
}

const bytesOf = (t: TrigramData) =>
  Buffer.concat([t.codeOf, t.keys, t.counts, t.kinds, t.starts, t.varints, t.bitmaps].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)));

describe('the trigram index spliced', () => {
  const where = ['first', 'last', 'between'] as const;
  let spliced = 0;
  let cases = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const at = where[seed % 3];
    it(`is the index made whole, or gives up: values ${seed % 2 ? 'added' : 'gone'} ${at}, moved (seed ${seed})`, () => {
      const random = mulberry32(seed);
      const n = 300 + Math.floor(random() * 200);
      const old = Array.from({ length: n }, () => value(random, 'dart'));
      // the new values: the previous ones in their order, a few gone, a few added, one moved ahead (its first row did)
      const ids = Array.from({ length: n }, (_, v) => v);
      const place = () => (at === 'first' ? 0 : at === 'last' ? ids.length : 1 + Math.floor(random() * (ids.length - 1)));
      const changes = 1 + Math.floor(random() * 3);
      const added: string[] = [];
      for (let k = 0; k < changes; k++) {
        if (seed % 2) {
          added.push(value(random, 'neniad'));
          ids.splice(place(), 0, n + k);
        } else ids.splice(Math.min(ids.length - 1, place()), 1);
      }
      if (seed % 4 === 0) ids.unshift(...ids.splice(Math.floor(ids.length / 2), 1));
      const next = new Int32Array(n + added.length).fill(-1);
      ids.forEach((was, v) => (next[was] = v));
      const folded = ids.map((was) => (was < n ? old[was] : added[was - n]));
      for (const budget of [1 << 20, 4000, 900, 64]) {
        const before = buildTrigrams(old, budget);
        const made = splicedTrigrams(before, folded, next, n, (v) => old[v], budget);
        const whole = buildTrigrams(folded, budget);
        cases++;
        if (made === null) continue;
        spliced++;
        expect(made.coverage, `budget ${budget}`).toBe(whole.coverage);
        expect(bytesOf(made).equals(bytesOf(whole)), `budget ${budget}`).toBe(true);
      }
    });
  }

  it('splices most of them (gives up only where a left-out list or the alphabet is in the way)', () => {
expect(spliced).toBeGreaterThan(cases / 2);
  });
});
