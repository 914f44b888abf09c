import { describe, expect, it } from 'vitest';
import { compareListOrder, renderEvent, type RenderContext } from '../../render/event.ts';
import { EventRows, serializeEvent } from '../format/event-rows.ts';
import { decodeSearchIndex, eachPosting, encodeSearchIndex } from '../format/search/search-index-file.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { orderingModel } from '../../api/events/test-ordering-events.ts';
import type { Event } from '../../model/types.ts';
import { columnValuesFromRows } from './column-values.ts';
import { searchIndex, searchIndexOf, stringsOf } from './search-index.ts';

const model = orderingModel(300, 3);
const ctx: RenderContext = { site: model.site, baseUrl: model.site.base_url, pages: model.pages, media: model.media };
const rowsOf = (events: readonly Event[]) => EventRows.from([...events].sort(compareListOrder).map((e) => serializeEvent(renderEvent(e, ctx))));

describe('the search index file', () => {
  it('reads back what was written, and refuses what is not one', () => {
    const bytes = searchIndexOf(rowsOf(model.events));
    const data = decodeSearchIndex(bytes);
    expect(data.rows).toBe(300);
    expect(encodeSearchIndex(data)).toEqual(bytes);
    // unaligned, as a file read into a larger buffer may be
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(decodeSearchIndex(shifted.subarray(3)).words).toBe(data.words);
    expect(() => decodeSearchIndex(bytes.subarray(0, 40))).toThrow(/too short|outside/);
    const other = bytes.slice();
    other[0] = 0x41;
    expect(() => decodeSearchIndex(other)).toThrow('it is not a search index');
    const newer = bytes.slice();
    newer[8] = 9;
    expect(() => decodeSearchIndex(newer)).toThrow('it is a search index of version 9, this aula reads version 1');
  });

  it('joins the rows of a term the text caches named twice (they start over while a body is read)', () => {
    // more distinct words than the caches keep: 'herzwort' is read again after they start over
    const many = Array.from({ length: 140_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const events = [...model.events].sort(compareListOrder).slice(0, 3);
    const rows = rowsOf([{ ...events[0], title: 'herzwort' }, { ...events[1], body: `<p>${many}</p>` }, { ...events[2], title: 'herzwort' }]);
    const rowsOfWord = (bytes: Uint8Array, word: string) => {
      const d = decodeSearchIndex(bytes);
      const i = stringsOf(d.text, d.textStart).indexOf(word);
      const out: number[] = [];
      eachPosting(d, i, (r) => out.push(r));
      return out;
    };
    const first = searchIndexOf(rows);
    expect(rowsOfWord(first, 'herzwort')).toEqual([0, 2]);
    expect(rowsOfWord(first, 'w0')).toEqual([1]);
    // made again with the caches as the first left them: the same bytes (compared whole: toEqual
    // would compare megabytes element by element)
    expect(Buffer.compare(searchIndexOf(rows), first)).toBe(0);
  }, 300_000);

  it('is the same bytes for the same rows, whatever else', () => {
    expect(searchIndexOf(rowsOf(model.events))).toEqual(searchIndexOf(rowsOf([...model.events].reverse())));
  });

  it("is the same bytes when the text columns' values are given, not read from the rows", () => {
    const rows = rowsOf(model.events);
    const values = columnValuesFromRows([...model.events].sort(compareListOrder), rows);
    expect(searchIndex(null, null, rows, values.text)).toEqual(searchIndexOf(rows));
    // what is given is what is indexed
    const blank = { ...values.text, title: values.text.title.map(() => 'zzqx') };
    expect(searchIndex(null, null, rows, blank)).not.toEqual(searchIndexOf(rows));
  });

  it('patched is what a full build writes: rows removed, changed, added, moved', () => {
    const rand = mulberry32(5);
    let events = [...model.events].sort(compareListOrder);
    let index = searchIndexOf(rowsOf(events));
    const extra = orderingModel(60, 9).events.map((e, i) => ({ ...e, id: 100_000 + i }));
    for (let step = 0; step < 8; step++) {
      const next: Event[] = [];
      const fresh = new Set<Event>();
      for (const e of events) {
        const r = rand();
        if (r < 0.05) continue; // removed
        if (r < 0.12) {
          const changed = { ...e, title: `${e.title} Änderung ${step}`, start: r < 0.09 ? e.start + 86_400_000 : e.start };
          fresh.add(changed);
          next.push(changed);
        } else next.push(e);
      }
      for (const e of extra.splice(0, 5)) {
        fresh.add(e);
        next.push(e);
      }
      next.sort(compareListOrder);
      const rowOf = new Map(events.map((e, i) => [e, i]));
      const sequence = new Int32Array(next.length);
      const made: { json: string; starts: number[] }[] = [];
      next.forEach((e, i) => {
        if (!fresh.has(e)) {
          sequence[i] = rowOf.get(e)!;
          return;
        }
        const row = serializeEvent(renderEvent(e, ctx));
        made.push(row);
        sequence[i] = -made.length;
      });
      index = searchIndex(index, sequence, EventRows.from(made));
      expect(index, `step ${step}`).toEqual(searchIndexOf(rowsOf(next)));
      events = next;
    }
  });
});
