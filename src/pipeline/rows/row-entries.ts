// The events' rows as the build makes them: each row's JSON with its field offsets and, with a
// cache, its hash (rowHash), of which the pages' keys are made (page-keys.ts). The parse threads
// render theirs into a scratch file (parse-pool.ts) until the rows are put together. No row is
// kept between builds: an unchanged event's row is the previous dist's (render/previous-data.ts).
import type { Event } from '../../model/types.ts';
import type { TextlessEvent } from '../../model/event-texts.ts';
import type { RenderContext } from '../../render/event-row.ts';
import type { EventRows } from '../../store/format/event-rows.ts';
import { rowsRenderer } from '../../store/write/data-files.ts';
import type { RowInFile } from '../../store/write/row-bytes.ts';
import { cacheIdentity, sha256 } from '../cache/keys.ts';
import { stableJson } from '../../util/stable-json.ts';

export const ROW_HASH_BYTES = 32;
/** A row's hash: SHA-256 of its JSON, all a page holds of it (page-keys.ts). */
export const rowHash: (json: Uint8Array) => Buffer = sha256;

/** A row made on a parse thread (parse-batch.ts): bytes or where its thread left them; hash null without a cache. */
export interface PremadeRow {
  json: Uint8Array | RowInFile;
  starts: Uint32Array;
  hash: Buffer | null;
}

/** Rows made ahead by the record they were made of (none when against another context than the build's), and `whole` to restore an event's texts. */
export interface RowsAhead {
  premade: ReadonlyMap<TextlessEvent, PremadeRow> | undefined;
  whole: (e: TextlessEvent) => Event;
}

/** A row's inputs besides its event, as one string: rows made ahead are used only when theirs equals the build's. */
export function renderInputs(ctx: RenderContext): string {
  return stableJson([cacheIdentity(), ctx]);
}

/**
 * The rows of `events` (list order), each made ahead (`ahead`) or rendered here (data-files.ts
 * rowsRenderer), and with `hashed` their rowHashes end to end (a hash made ahead taken as it is).
 */
export function madeRows(events: readonly TextlessEvent[], ctx: RenderContext, { premade, whole }: RowsAhead, hashed: boolean): { rows: EventRows; hashes: Buffer | null } {
  const rows = rowsRenderer(premade, whole)(events, ctx);
  if (!hashed) return { rows, hashes: null };
  const hashes = Buffer.alloc(events.length * ROW_HASH_BYTES);
  events.forEach((e, row) => (premade?.get(e)?.hash ?? rowHash(rows.bytes(row))).copy(hashes, row * ROW_HASH_BYTES));
  return { rows, hashes };
}
