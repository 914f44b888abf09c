// The data files the server needs, under dist/data/ and dist/autocomplete/, rendered from the model.
import { buildAutocompleteFiles } from './autocomplete-files.ts';
import { AUTOCOMPLETE_DIR, DATA_FILES, EVENT_PART_ROWS, eventPartFile } from '../format/dist-paths.ts';
import type { Event } from '../../model/types.ts';
import { wholeEvent, type BuildModel, type TextlessEvent } from '../../model/event-texts.ts';
import { compareListOrder, renderCategory, renderEvent, type RenderContext } from '../../render/event.ts';
import { toJson } from '../format/json.ts';
import { serializeEvent, type EventRows } from '../format/event-rows.ts';
import { columnValuesFromRows } from './column-values.ts';
import { eventData, someRows, type CalendarMaker, type Reuse } from './event-data.ts';
import { splitParts } from '../format/event-parts.ts';
import { RowBytes, type RowInFile } from './row-bytes.ts';
import { searchIndexBeside } from './search-thread.ts';

export type { CalendarMaker } from './event-data.ts';
export type DistFiles = Map<string, string | Uint8Array>;

/** Rows from which the search index is made on a thread of its own: a thread's start costs what indexing a few thousand rows does. */
const SEARCH_THREAD_ROWS = 10_000;

/** Makes the event rows from the events in list order (the build may take them from its cache). */
export type RowMaker = (events: readonly TextlessEvent[], ctx: RenderContext) => EventRows;

/**
 * Rows rendered here, or taken from `ahead` (made elsewhere of the same event and context) where
 * it has them; `whole`: an event with its texts, to render.
 */
export function rowsRenderer(ahead?: ReadonlyMap<TextlessEvent, { json: Uint8Array | RowInFile; starts: ArrayLike<number> }>, whole: (e: TextlessEvent) => Event = wholeEvent): RowMaker {
  return (events, ctx) => {
    const out = new RowBytes(events.length);
    for (const e of events) {
      const made = ahead?.get(e);
      if (made) {
        out.addBytes(made.json, made.starts);
        continue;
      }
      const row = serializeEvent(renderEvent(whole(e), ctx));
      out.addJson(row.json, row.starts);
    }
    return out.finish();
  };
}

export const renderRows: RowMaker = rowsRenderer();

/**
 * Renders the model into the server's data files, keyed by path relative to dist/.
 * `autocomplete`: how to make the autocomplete files (the build may take them from its cache);
 * `rowsOf`: how to make the events' rows; `partRows`: rows per part of them (dist-paths.ts);
 * `parts`: given, its take() is handed the event parts (path, bytes) as soon as they are made,
 * and they are left out of the files returned: the build writes them then, and the rows are not
 * held while the other files are made; its eventsTaken(), when given, has the model's events let go of (model.events emptied) as soon
 * as their columns' values are made, and is called then: nothing after reads their records, which
 * held would be part of the build's peak (the build collects them there, before the calendar, the
 * search index and the columns are made); `calendar`: how to make data/calendar.bin's entries;
 * `reuse`: the previous build's data and each row's place in it, given the rows (the build's,
 * where it can prove them).
 */
export async function renderDataFiles(
  model: BuildModel,
  baseUrl: string,
  autocomplete: (directory: BuildModel['directory']) => Promise<Record<string, string>> = buildAutocompleteFiles,
  rowsOf: RowMaker = renderRows,
  partRows = EVENT_PART_ROWS,
  parts: { take: (parts: [string, Uint8Array][]) => void; eventsTaken?: () => void } | undefined,
  calendar: CalendarMaker,
  reuse?: (rows: EventRows) => Reuse | null,
): Promise<DistFiles> {
  const events = [...model.events].sort(compareListOrder);
  const ctx: RenderContext = { site: model.site, baseUrl, pages: model.pages, media: model.media };
  const files: DistFiles = new Map();
  // (a function of its own: once it returns, nothing here holds the rows)
  const search = (() => {
    const all = rowsOf(events, ctx);
    // with the previous data: the rows it has are taken from it, the others made (event-data.ts)
    const prior = reuse?.(all) ?? null;
    const rows = prior ? someRows(all, prior.fresh) : all;
    // every row new, and enough of them to pay for a thread's start: the search index is made on
    // a thread of its own while this one makes the rest
    const beside = prior || rows.length < SEARCH_THREAD_ROWS ? null : searchIndexBeside(rows);
    beside?.catch(() => undefined); // awaited below; not an unhandled rejection should this one throw first
    const fresh = prior ? prior.fresh.map((i) => events[i]) : events;
    const values = columnValuesFromRows(fresh, rows);
    if (parts?.eventsTaken) {
      for (const list of [fresh, events, model.events]) list.length = 0;
      parts.eventsTaken();
    }
    // every row is here: each part is a view of them, made in one piece, and taken (written) while
    // the columns, the calendar and the search index are made from them
    const made = splitParts(all.lineBytes, all.starts, partRows).map((part, i): [string, Uint8Array] => [eventPartFile(i), part]);
    if (parts) parts.take(made);
    else for (const [rel, part] of made) files.set(rel, part);
    const data = eventData({ rows, values, order: prior?.order ?? null, previous: prior?.previous ?? null, timezone: model.site.timezone, partRows, calendar, search: beside === null });
    for (const [rel, bytes] of data.files) files.set(rel, bytes);
    return beside;
  })();
  // (awaited before anything else is made: the thread holds the rows until it answers)
  if (search) files.set(DATA_FILES.search, await search);
  files.set(DATA_FILES.categories, toJson(model.categories.map(renderCategory)));
  for (const [rel, text] of Object.entries(await autocomplete(model.directory))) {
    files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
  }
  return files;
}

