import { describe, expect, it } from 'vitest';
import { compareListOrder, renderEvent, type RenderContext } from '../../render/event.ts';
import { EventRows, serializeEvent } from '../format/event-rows.ts';
import { orderingModel } from '../../api/events/test-ordering-events.ts';
import type { Event } from '../../model/types.ts';
import { columnValuesFromRows } from './column-values.ts';
import { RowBytes } from './row-bytes.ts';
import { searchIndex } from './search-index.ts';
import { searchIndexBeside } from './search-thread.ts';

// the thread module on a real worker thread, as an installed aula runs it (start-thread.ts)
process.env.AULA_THREADS = 'worker';

const model = orderingModel(300, 3);
const ctx: RenderContext = { site: model.site, baseUrl: model.site.base_url, pages: model.pages, media: model.media };

/** The rows as the build makes them: in one buffer of shared memory (row-bytes.ts). */
function sharedRows(events: readonly Event[]): EventRows {
  const out = new RowBytes(events.length);
  for (const e of events) {
    const row = serializeEvent(renderEvent(e, ctx));
    out.addJson(row.json, row.starts);
  }
  return out.finish();
}

describe('searchIndexBeside', () => {
  it("is, made on a thread from the rows' bytes alone, the index made here from the text columns' values", async () => {
    // escapes in the searched fields: a quote, a backslash, a line separator, a control
    const odd = ['Herz "Kurs" \\ Wien', 'Linz\u2028Graz', 'Tab\tund\u0001Ende'];
    const events = [...model.events].sort(compareListOrder).map((e, i) => (i < odd.length ? { ...e, title: odd[i], location: odd[(i + 1) % odd.length], body: `<p>${odd[i]}</p>` } : e));
    const rows = sharedRows(events);
    expect(rows.lineBytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const here = searchIndex(null, null, rows, columnValuesFromRows(events, rows).text);
    const beside = await searchIndexBeside(rows);
    expect(Buffer.compare(beside, here)).toBe(0);
  }, 60_000);
});
