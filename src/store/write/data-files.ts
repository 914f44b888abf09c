// The events' rows as the data files hold them, rendered from the model (or taken where made
// elsewhere of the same event and context); and the data files by path, as a build holds them.
import type { Event } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import { eventRowWriter, type EventRow, type RenderContext } from '../../render/event-row.ts';
import type { EventRows } from '../format/event-rows.ts';
import { RowBytes, type RowInFile } from './row-bytes.ts';

export type DistFiles = Map<string, string | Uint8Array>;

/** Makes the event rows from the events in list order (the build may take them from its cache). */
export type RowMaker = (events: readonly TextlessEvent[], ctx: RenderContext) => EventRows;

/**
 * Rows rendered here, or taken from `ahead` (made elsewhere of the same event and context) where
 * it has them; `whole`: an event with its texts, to render.
 */
export function rowsRenderer(ahead?: ReadonlyMap<TextlessEvent, { json: Uint8Array | RowInFile; starts: ArrayLike<number> }>, whole: (e: TextlessEvent) => Event = wholeEvent): RowMaker {
  return (events, ctx) => {
    const out = new RowBytes(events.length);
    // (the rows made here, as the parse threads make theirs)
    let writeRow: ((e: Event) => EventRow) | undefined;
    for (const e of events) {
      const made = ahead?.get(e);
      const row = made ? null : (writeRow ??= eventRowWriter(ctx))(whole(e));
      out.addBytes(made?.json ?? row!.bytes, made?.starts ?? row!.starts);
    }
    return out.finish();
  };
}

export const renderRows: RowMaker = rowsRenderer();
