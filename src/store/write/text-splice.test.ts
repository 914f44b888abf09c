// The string tables and word lists spliced from a previous file's bytes against those made from
// the values' strings: values renumbered (in order and out of it), gone and added, words that
// vanish with their last value and words new to the column; and the cases it leaves to the builder.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../util/mulberry32.ts';
import { fold } from '../format/fold.ts';
import { TEXT_COLUMN_FORMAT, TEXT_SECTION } from '../format/text-column-file.ts';
import { WORD_SECTIONS } from '../format/word-lists.ts';
import type { Section } from './sections.ts';
import { stringTableSections } from './string-table.ts';
import { buildTextColumn, textColumnFile } from './text-column.ts';
import { fileSections, splicedStringTable, splicedWordLists } from './text-splice.ts';
import { wordListSections } from './word-lists.ts';

/** A section's bytes, its pieces joined. */
const bytesOf = (s: Section): Buffer => Buffer.concat((Array.isArray(s) ? s : [s]).map((p: ArrayBufferView) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
const sameSections = (a: Section[], b: Section[]) => a.length === b.length && a.every((s, i) => bytesOf(s).equals(bytesOf(b[i])));

/** A renumbering of `oldCount` values: some gone, `adding` added, in order or shuffled a little. */
function renumber(random: () => number, oldCount: number, adding: number, shuffled: boolean): { next: Int32Array; count: number } {
  const next = new Int32Array(oldCount + adding).fill(-1);
  const order: number[] = [];
  for (let was = 0; was < oldCount + adding; was++) if (was >= oldCount || random() > 0.1) order.push(was);
  // the added values among the previous ones, as a new first row puts them
  for (let k = 0; k < adding; k++) {
    const from = order.indexOf(oldCount + k);
    const [v] = order.splice(from, 1);
    order.splice(Math.floor(random() * (order.length + 1)), 0, v);
  }
  if (shuffled && order.length > 2) [order[0], order[order.length - 1]] = [order[order.length - 1], order[0]];
  order.forEach((was, v) => (next[was] = v));
  return { next, count: order.length };
}

const words = ['kurs', 'seminar', 'tagung', 'ärzte', 'zürich', '😀', 'a', 'fest', 'wien', 'graz'];
const text = (random: () => number, extra: string) =>
  Array.from({ length: 1 + Math.floor(random() * 5) }, () => words[Math.floor(random() * words.length)]).join(random() < 0.5 ? ' ' : ', ') + (random() < 0.3 ? ` ${extra}` : '');

describe('splices from a previous file', () => {
  for (let seed = 1; seed <= 12; seed++) {
    it(`give the string table and word lists made whole (seed ${seed})`, () => {
      const random = mulberry32(seed);
      // (distinct: a column's values are)
      const oldValues = [...new Set(Array.from({ length: 30 + Math.floor(random() * 50) }, (_, i) => text(random, `alt${i}`)))];
      const oldFolded = oldValues.map(fold);
      const adding = Math.floor(random() * 4);
      const { next, count } = renumber(random, oldValues.length, adding, seed % 3 === 0);
      const values = new Array<string>(count);
      next.forEach((v, was) => {
        if (v >= 0) values[v] = was < oldValues.length ? oldValues[was] : `${text(random, '')} neu${was}`;
      });
      const folded = values.map(fold);
      const old = fileSections(textColumnFile(buildTextColumn(oldValues, { folded: true, trigramBudget: () => 1 << 20 }), 1), TEXT_COLUMN_FORMAT)!;
      const table = splicedStringTable(old.slice(TEXT_SECTION.values, TEXT_SECTION.values + 3), next, oldValues.length, values);
      expect(table).not.toBeNull();
      expect(sameSections(table!, stringTableSections(values))).toBe(true);
      const lists = splicedWordLists(old.slice(TEXT_SECTION.words, TEXT_SECTION.words + WORD_SECTIONS), folded, { next, oldCount: oldValues.length, oldFolded: (v) => oldFolded[v] });
      expect(lists).not.toBeNull();
      expect(sameSections(lists!, wordListSections(folded, 1)!)).toBe(true);
    });
  }

  it('leaves a string that is not well-formed to the builder', () => {
    const old = fileSections(textColumnFile(buildTextColumn(['a b', 'c'], { folded: true, trigramBudget: () => 1 << 20 }), 1), TEXT_COLUMN_FORMAT)!;
    const next = Int32Array.from([0, 1, 2]);
    expect(splicedStringTable(old.slice(TEXT_SECTION.values, TEXT_SECTION.values + 3), next, 2, ['a b', 'c', 'x\ud800'])).toBeNull();
    // a previous table that lists such a string: its bytes are not each string's own
    const odd = fileSections(textColumnFile(buildTextColumn(['\udc00a', 'c'], { folded: false, trigramBudget: () => null })), TEXT_COLUMN_FORMAT)!;
    expect(splicedStringTable(odd.slice(TEXT_SECTION.values, TEXT_SECTION.values + 3), next, 2, ['\udc00a', 'c', 'x'])).toBeNull();
  });

  it('needs the previous word lists', () => {
    const old = fileSections(textColumnFile(buildTextColumn(['a b', 'c'], { folded: true, trigramBudget: () => 1 << 20 })), TEXT_COLUMN_FORMAT)!;
    expect(splicedWordLists(old.slice(TEXT_SECTION.words, TEXT_SECTION.words + WORD_SECTIONS), ['a b', 'c', 'd'], { next: Int32Array.from([0, 1, 2]), oldCount: 2, oldFolded: (v) => ['a b', 'c'][v] })).toBeNull();
  });
});
