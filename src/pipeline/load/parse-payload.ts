// A file's parse as a parse thread hands it over: v8.serialize of the parse, or for an events file
// whose every event has its row made on the thread,
//
//   0x00 · v8.serialize(the parse, its events without their texts)
//
// The rows hold the texts (decoded here they would be most of the main thread's heap): each event
// is made whole from its row when it is rendered (parse-pool.ts withTexts).
import { deserialize, serialize } from 'node:v8';
import type { Parsed } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { EVENT_TEXTS, type TextlessEvent } from '../../model/event-texts.ts';
import { fieldIndex } from '../../store/format/event-rows.ts';

/** Where each text is among a row's fields. */
export const TEXT_FIELD_INDEXES = EVENT_TEXTS.map((f) => fieldIndex(f)!);

/** `e` without its texts: a copy (the names are EVENT_TEXTS'; a test checks that none is left). */
function textless(e: Event): TextlessEvent {
  const { title, organizer, location, teaser, body, attending_fees_info, contact, email, ...rest } = e;
  return rest;
}

/** The first byte of a payload without texts (v8.serialize's payloads start with 0xff). */
const TEXTLESS = 0x00;

/** The payload of `parsed` with its events' texts left out, as parts (its own records keep theirs). */
export function textlessPayload(parsed: Parsed<Event>): Uint8Array[] {
  return [Buffer.from([TEXTLESS]), serialize({ ...parsed, records: parsed.records.map((r) => ({ ...r, value: textless(r.value) })) })];
}

/** A payload's parse (its events without their texts where textlessPayload left them out). Throws on damage. */
export function decodeParse(payload: Buffer): unknown {
  return deserialize(payload[0] === TEXTLESS ? payload.subarray(1) : payload);
}
