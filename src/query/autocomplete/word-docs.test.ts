import { describe, expect, it } from 'vitest';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { DIRECTORY_MODELS } from '../../model/types.ts';
import { planWord, addFuzzy } from './plan.ts';
import { queryWords } from './query-words.ts';
import { WordDocsBuilder } from './word-docs.ts';
import { syntheticDirectory } from './test-fixtures.ts';
import { mulberry32 } from '../../util/mulberry32.ts';

describe('WordDocsBuilder', () => {
  const objects = syntheticDirectory(1500, 11);
  const index = decodeIndex(buildIndexJson(objects));
  const builder = new WordDocsBuilder(index);

  /** best code per document straight from the plan's posting runs */
  const naive = (q: string) => {
    const plan = planWord(index, queryWords(q)[0]);
    addFuzzy(index, plan);
    const best = new Map<number, number>();
    for (let s = 0; s < plan.segments.length; s += 3) {
      for (let p = plan.segments[s]; p < plan.segments[s + 1]; p++) {
        const e = index.postings[p];
        const code = plan.segments[s + 2] + (e & 1);
        const doc = e >> 1;
        if (!best.has(doc) || code < best.get(doc)!) best.set(doc, code);
      }
    }
    return best;
  };

  it('gives every matched document once, ascending, with its best code; ranks them by code then document; counts by model', () => {
    const r = mulberry32(5);
    const words = [...new Set(objects.flatMap((o) => o.presentation.split(/[\s,.()-]+/)).filter((w) => w.length > 0))];
    let broad = 0;
    let multiRun = 0;
    for (let i = 0; i < 300; i++) {
      const w = words[Math.floor(r() * words.length)];
      const q = r() < 0.5 ? w.slice(0, 1 + Math.floor(r() * w.length)) : w.slice(0, -1) + 'x';
      if (queryWords(q).length === 0) continue;
      const plan = planWord(index, queryWords(q)[0]);
      const wd = builder.build(plan);
      if (plan.segments.length > 3) multiRun++;
      const expected = naive(q);
      const docs = [...expected.keys()].sort((a, b) => a - b);
      expect(Array.from(wd.entries, (e) => e >> 3), q).toEqual(docs);
      expect(Array.from(wd.entries, (e) => e & 7), q).toEqual(docs.map((d) => expected.get(d)));
      const byKey = [...docs].sort((a, b) => expected.get(a)! - expected.get(b)! || a - b);
      // pages read both ways: from the entries (a fresh build) and from the rank order once made
      if (r() < 0.5) expect(Array.from(wd.ranked()), q).toEqual(byKey);
      if (wd.bits !== null) {
        broad++;
        for (let d = 0; d < index.size; d++) expect(((wd.bits[d >>> 5] >>> (d & 31)) & 1) === 1).toBe(expected.has(d));
      }
      const mask = r() < 0.3 ? (1 << DIRECTORY_MODELS.length) - 1 : 1 + Math.floor(r() * ((1 << DIRECTORY_MODELS.length) - 1));
      const inMask = byKey.filter((d) => ((1 << index.model[d]) & mask) !== 0);
      expect(wd.countIn(index.model, mask)).toBe(inMask.length);
      for (const [offset, limit] of [[0, 20], [Math.floor(r() * inMask.length), 1 + Math.floor(r() * 30)], [inMask.length, 5]]) {
        expect(Array.from(wd.page(index.model, mask, offset, limit)), `${q} ${mask} ${offset}`).toEqual(inMask.slice(offset, offset + limit));
      }
    }
    // the runs must include broad words (bitmaps) and several-run words (the marks pass)
    expect(broad).toBeGreaterThan(10);
    expect(multiRun).toBeGreaterThan(10);
  });
});
