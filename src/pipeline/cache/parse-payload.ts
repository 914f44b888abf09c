// A file's parse as the parse threads hand it over and the build cache keeps it: v8.serialize of
// the parse, or for an events file whose rows its thread made, two parts:
//
//   0x00 · u32 LE length of the first part · v8.serialize(textless parse) · [[…8 texts…], …]
//
// The texts' JSON is copied from the rows' bytes. The main thread then decodes only the first part
// (the rows hold the texts, which decoded would be most of its heap); a cached parse is decoded whole.
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

const NO_TEXTS = Buffer.from('[]'); // the texts of a payload made without them (TextsApart's `kept`)
/** The texts' JSON as it is written: grows to the largest batch's, kept for the next. */
let scratch = Buffer.allocUnsafeSlow(64 << 10);

/**
 * The texts of a batch's events files as their rows are made (begin() a file, add() each row in
 * record order, then parts()). One at a time per thread: they share the scratch buffer.
 */
export class TextsApart {
  /** the JSON in `scratch`, from 0: the files' texts, then this file's, from `start` */
  private bytes = 0;
  private start = 0;
  private count = 0;

  /** `kept` false (no cache): the texts are left out */
  constructor(private readonly kept = true) {}

  /** Starts a file's texts; those of a file begun and not made into parts are dropped. */
  begin(): void {
    this.bytes = this.start;
    this.count = 0;
    if (!this.kept) return;
    this.room(1);
    scratch[this.bytes++] = 0x5b; // [
  }

  private room(more: number): void {
    if (this.bytes + more <= scratch.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes + more, Math.ceil(scratch.length * 1.5)));
    scratch.copy(grown, 0, 0, this.bytes);
    scratch = grown;
  }

  /** A record's row: its texts' JSON is copied out of `row` (which may be reused after). */
  add(row: Uint8Array, starts: ArrayLike<number>): void {
    if (!this.kept) return void this.count++;
    this.room(row.byteLength + EVENT_TEXTS.length + 3);
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

  /** The payload of `parsed`, whose records are those added since begin(), as parts (the last a view of the scratch). */
  parts(parsed: Parsed<Event>): Uint8Array[] {
    if (parsed.records.length !== this.count) throw new Error('the texts do not fit the records');
    const first = serialize({ ...parsed, records: parsed.records.map((r) => ({ ...r, value: textless(r.value) })) });
    const head = Buffer.from([APART, 0, 0, 0, 0]);
    head.writeUInt32LE(first.length, 1);
    if (!this.kept) return [head, first, NO_TEXTS];
    this.room(1);
    scratch[this.bytes++] = 0x5d; // ]
    return [head, first, scratch.subarray(this.start, (this.start = this.bytes))];
  }
}

/** Whether `payload` holds its events' texts apart from their parse (made with TextsApart). */
export const textsApart = (payload: Uint8Array): boolean => payload[0] === APART;

/** A payload's parse, with its events' texts or (`texts` false) without those held apart. Throws on damage. */
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
