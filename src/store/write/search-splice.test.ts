// The search index spliced where rows changed in place is, to the byte, the index the full writer
// makes of the edited rows: after random edits of few and many rows, terms that appear and
// disappear, lists that cross between varints and bit sets, and no change at all.
import { describe, expect, it } from 'vitest';
import { compareListOrder, renderEvent, type RenderContext } from '../../render/event.ts';
import { EventRows, FIELD_COUNT, serializeEvent } from '../format/event-rows.ts';
import { BITMAP_REF, decodeSearchIndex } from '../format/search/search-index-file.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { orderingModel } from '../../api/events/test-ordering-events.ts';
import type { Event } from '../../model/types.ts';
import { rowTerms, searchIndexOf } from './search-index.ts';
import { searchIndexInPlace, searchIndexShifted, type RowChange } from './search-splice.ts';

const STRIDE = FIELD_COUNT + 1;
const model = orderingModel(300, 3);
const ctx: RenderContext = { site: model.site, baseUrl: model.site.base_url, pages: model.pages, media: model.media };
const rowsOf = (events: readonly Event[]) => EventRows.from(events.map((e) => serializeEvent(renderEvent(e, ctx))));

/** The changes from `rows` to `next` at `places`: the same events but there. */
function changesOf(rows: EventRows, next: EventRows, places: readonly number[]): RowChange[] {
  return places.map((place) => ({
    place,
    before: (sink) => rowTerms({ bytes: rows.bytes(place), starts: rows.starts, base: place * STRIDE }, sink),
    after: (sink) => rowTerms({ bytes: next.bytes(place), starts: next.starts, base: place * STRIDE }, sink),
  }));
}

/** Whether each list of the index is a bit set, by string. */
function forms(index: Uint8Array): Map<string, boolean> {
  const d = decodeSearchIndex(index);
  const text = new TextDecoder('utf-16le').decode(d.text);
  const out = new Map<string, boolean>();
  for (let i = 0; i < d.lists.length / 2; i++) out.set(text.slice(d.textStart[i], d.textStart[i + 1]), (d.lists[2 * i] & BITMAP_REF) !== 0);
  return out;
}

describe('the search index spliced in place', () => {
  it('is what the full writer makes of the edited rows, after random edits', () => {
    const rand = mulberry32(17);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
    let events = [...model.events].sort(compareListOrder);
    let rows = rowsOf(events);
    let index = searchIndexOf(rows);
    const words = ['Tagung', 'Neuwort', 'zzqx', 'Änderung', 'e-mail', '18:00', '&', 'Ω', 'orthopädie', 'für', ''];
    let crossed = 0;
    for (let step = 0; step < 40; step++) {
      // few rows most steps, now and then most of them (lists shrink and grow across the bit set's bound)
      const share = step % 7 === 3 ? 0.6 : step % 7 === 5 ? 0.3 : 0.02;
      const places: number[] = [];
      const next = events.map((e, i) => {
        if (rand() >= share) return e;
        places.push(i);
        const text = () => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(words)).join(' ');
        const field = pick(['title', 'teaser', 'body', 'location', 'organizer', 'all'] as const);
        return field === 'all' ? { ...e, title: text(), teaser: text(), body: text(), location: null, organizer: null } : { ...e, [field]: field === 'title' ? text() || 'x' : text() || null };
      });
      expect(next.every((e, i) => i === 0 || compareListOrder(next[i - 1], e) <= 0)).toBe(true);
      const nextRows = rowsOf(next);
      const spliced = searchIndexInPlace(index, changesOf(rows, nextRows, places));
      const expected = searchIndexOf(nextRows);
      expect(Buffer.from(spliced).equals(Buffer.from(expected)), `step ${step}`).toBe(true);
      const [was, is] = [forms(index), forms(expected)];
      for (const [term, bits] of is) if (was.has(term) && was.get(term) !== bits) crossed++;
      events = next;
      rows = nextRows;
      index = spliced;
    }
    // the edits did cross: some lists went from varints to a bit set or back
    expect(crossed).toBeGreaterThan(0);
  });

  it('is the previous bytes when no row changed or the changed rows have the same terms', () => {
    const rows = rowsOf([...model.events].sort(compareListOrder));
    const index = searchIndexOf(rows);
    expect(Buffer.from(searchIndexInPlace(index, [])).equals(Buffer.from(index))).toBe(true);
    expect(Buffer.from(searchIndexInPlace(index, changesOf(rows, rows, [0, 5, 299]))).equals(Buffer.from(index))).toBe(true);
  });

  it('refuses changes the previous index does not fit', () => {
    const events = [...model.events].sort(compareListOrder);
    const rows = rowsOf(events);
    const index = searchIndexOf(rows);
    // row 1's terms said to be row 0's: the index has not all of them at row 0
    const wrong = [{ place: 0, before: changesOf(rows, rows, [1])[0].before, after: changesOf(rows, rows, [0])[0].after }];
    expect(() => searchIndexInPlace(index, wrong)).toThrow('the previous search index is damaged');
    expect(() => searchIndexInPlace(index, changesOf(rows, rows, [300]))).toThrow('row 300 is not in the search index');
  });
});

describe('the search index spliced where rows are added and removed', () => {
  const all = [...model.events].sort(compareListOrder);
  const words = ['Neuwort', 'zzqx', 'Änderung', 'e-mail', 'Ω', 'orthopädie', 'für'];

  /** The index of `before` spliced into that of `after` (both in list order; `after`'s rows that are `before`'s found by identity). */
  function shifted(before: readonly Event[], after: readonly Event[]): { spliced: Uint8Array; expected: Uint8Array } {
    const place = new Map(before.map((e, i) => [e, i]));
    const fresh: Event[] = [];
    const order = Int32Array.from(after, (e) => place.get(e) ?? -fresh.push(e));
    const freshRows = rowsOf(fresh);
    const joins = [...order].flatMap((from, i) => (from >= 0 ? [] : [{ place: i, terms: (sink: Parameters<typeof rowTerms>[1]) => rowTerms({ bytes: freshRows.bytes(-from - 1), starts: freshRows.starts, base: (-from - 1) * STRIDE }, sink) }]));
    return { spliced: searchIndexShifted(searchIndexOf(rowsOf(before)), order, joins), expected: searchIndexOf(rowsOf(after)) };
  }

  // (288 rows: 9 words a bit set, so a row more or less crosses between bit-set sizes)
  const cases: [string, number, number[], number][] = [
    ['the first row removed', 288, [0], 0],
    ['the last row removed (bit sets shrink)', 289, [288], 0],
    ['a row in between removed', 300, [150], 0],
    ['rows removed here and there', 300, [3, 77, 78, 200, 299], 0],
    ['a row added first', 288, [], 1],
    ['a row added last (bit sets grow)', 288, [], 1],
    ['rows added in between', 280, [], 5],
    ['rows removed and added', 296, [10, 11, 250], 4],
  ];
  cases.forEach(([what, n, removed, addedCount], c) => {
    it(`is what the full writer makes: ${what}`, () => {
      const rand = mulberry32(100 + c);
      const before = all.slice(0, n);
      const after = before.filter((_, i) => !removed.includes(i));
      for (let k = 0; k < addedCount; k++) {
        // a copy of a row (its terms known) or one with words of its own; placed first, last or anywhere
        const like = before[Math.floor(rand() * n)];
        const own = k % 2 === 1;
        const text = own ? `${words[k % words.length]} ${words[(k + 3) % words.length]} einzig${c}x${k}` : like.title;
        const at = what.includes('first') ? 0 : what.includes('last') ? after.length : Math.floor(rand() * (after.length + 1));
        const neighbour = after[Math.min(at, after.length - 1)];
        const made = { ...like, id: 100000 + 10 * c + k, title: text, teaser: own ? text : like.teaser, start: neighbour.start + (at === 0 ? 60000 : 0), end: neighbour.end };
        after.splice(at, 0, made);
      }
      after.sort(compareListOrder);
      if (what.includes('added first')) expect(before.includes(after[0])).toBe(false);
      if (what.includes('added last')) expect(before.includes(after[after.length - 1])).toBe(false);
      const { spliced, expected } = shifted(before, after);
      expect(Buffer.from(spliced).equals(Buffer.from(expected))).toBe(true);
    });
  });

  it('is the previous bytes when no row moved', () => {
    const rows = all.slice(0, 100);
    const { spliced, expected } = shifted(rows, rows);
    expect(Buffer.from(spliced).equals(Buffer.from(expected))).toBe(true);
  });
});
