// A file's parse as the parse threads hand it over and the build cache keeps it (its payload).
//
// Most payloads are v8.serialize of the parse. An events file whose every record had its row
// made on its thread (parse-batch.ts) is written in two parts instead: the parse with its events
// textless (EVENT_TEXTS absent), then those fields' JSON as the rows hold them (UTF-8, copied from
// the rows' bytes), as one JSON array per file:
//
//   0x00 · u32 LE length of the first part · v8.serialize(textless parse) · [[…8 values…], …]
//
// The build's main thread decodes only the first part of a parse a thread made now: its rows hold
// the texts. A body with „ “ or – is a two-byte string to V8, and the bodies are most of the
// payloads; decoded, they would be the largest part of the main thread's heap. A parse taken from
// the cache is decoded whole.
import { deserialize, serialize } from 'node:v8';
import type { Parsed } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { EVENT_TEXTS, type TextlessEvent } from '../../model/event-texts.ts';
import { fieldIndex, valueSpanIn } from '../../store/format/event-rows.ts';

/** Where each text is among a row's fields. */
export const TEXT_FIELD_INDEXES = EVENT_TEXTS.map((f) => fieldIndex(f)!);

/** `e` without its texts: a copy (the names are EVENT_TEXTS'; a test checks that none is left). */
function textless(e: Event): TextlessEvent {
  const { title, organizer, location, teaser, body, attending_fees_info, contact, email, ...rest } = e;
  return rest;
}

/** The first byte of a payload in two parts (v8.serialize's payloads start with 0xff). */
const APART = 0x00;
const HEAD = 5;

/** The texts' JSON as it is written: grows to the largest file's, kept for the next. */
let scratch = Buffer.allocUnsafeSlow(64 << 10);

/**
 * The texts of one file's events, as their rows are made (add each row's bytes and offsets in
 * record order), then the payload of the file's parse. One at a time per thread: they share the
 * scratch buffer, which a new one starts over.
 */
export class TextsApart {
  /** the JSON so far in `scratch`, from 0: `[` and the records' arrays */
  private bytes = 1;
  private count = 0;

  constructor() {
    scratch[0] = 0x5b; // [
  }

  /** A record's row: its texts' JSON is copied out of `row` (which may be reused after). */
  add(row: Uint8Array, starts: ArrayLike<number>): void {
    // at most the row's length, the commas and brackets
    const room = this.bytes + row.byteLength + EVENT_TEXTS.length + 3;
    if (room > scratch.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(room, Math.ceil(scratch.length * 1.5)));
      scratch.copy(grown, 0, 0, this.bytes);
      scratch = grown;
    }
    let at = this.bytes;
    if (this.count > 0) scratch[at++] = 0x2c; // ,
    scratch[at++] = 0x5b;
    TEXT_FIELD_INDEXES.forEach((field, f) => {
      if (f > 0) scratch[at++] = 0x2c;
      const [from, to] = valueSpanIn(starts, 0, field);
      scratch.set(row.subarray(from, to), at);
      at += to - from;
    });
    scratch[at++] = 0x5d; // ]
    this.bytes = at;
    this.count++;
  }

  /** The payload of `parsed`, whose records are the ones added (in order): its events textless, their texts in the second part. */
  payload(parsed: Parsed<Event>): Buffer {
    if (parsed.records.length !== this.count) throw new Error('the texts do not fit the records');
    const first = serialize({ ...parsed, records: parsed.records.map((r) => ({ ...r, value: textless(r.value) })) });
    const out = Buffer.allocUnsafe(HEAD + first.length + this.bytes + 1);
    out[0] = APART;
    out.writeUInt32LE(first.length, 1);
    first.copy(out, HEAD);
    scratch.copy(out, HEAD + first.length, 0, this.bytes);
    out[HEAD + first.length + this.bytes] = 0x5d; // ]
    return out;
  }
}

/**
 * A payload's parse. `texts`: with its events' texts (a parse from the cache); without, its events
 * are textless where the payload carries their texts apart (a parse a thread made now, whose rows
 * hold them). Throws on a payload it cannot read.
 */
export function decodeParse(payload: Buffer, texts: boolean): unknown {
  if (payload[0] !== APART) return deserialize(payload);
  const length = payload.readUInt32LE(1);
  const parsed = deserialize(payload.subarray(HEAD, HEAD + length)) as Parsed<unknown>;
  if (!texts) return parsed;
  const values = JSON.parse(payload.toString('utf8', HEAD + length)) as unknown;
  const records = parsed?.records;
  if (!Array.isArray(values) || !Array.isArray(records) || values.length !== records.length) throw new Error('the texts do not fit the records');
  records.forEach((r, i) => {
    const v = values[i] as unknown;
    if (!Array.isArray(v) || v.length !== EVENT_TEXTS.length) throw new Error('the texts do not fit the records');
    const fields = r.value as Record<string, unknown>;
    EVENT_TEXTS.forEach((f, j) => (fields[f] = v[j]));
  });
  return parsed;
}
