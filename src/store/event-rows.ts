// Pre-serialized events. Each event is serialized once (at build time) into one JSON string;
// the start of each key is recorded so that sparse fields and expansion can splice segments
// instead of re-serializing objects per request.
import { EVENT_FIELDS, type EventField } from '../render/event.ts';
import { needsEscaping, toJson } from '../render/json.ts';

export const FIELD_COUNT = EVENT_FIELDS.length;
const STRIDE = FIELD_COUNT + 1;
const FIELD_INDEX = new Map<string, number>(EVENT_FIELDS.map((f, i) => [f, i]));
/** length of `"key":` per field */
const KEY_PREFIX = EVENT_FIELDS.map((f) => f.length + 3);

export function fieldIndex(field: string): number | undefined {
  return FIELD_INDEX.get(field);
}

/** Serializes a rendered event; `starts[i]` is where the `"key":` of field i begins, `starts[FIELD_COUNT]` is json.length. */
export function serializeEvent(obj: Readonly<Record<EventField, unknown>>): { json: string; starts: number[] } {
  // Parts joined once: repeated `+=` builds a rope of 60 pieces per event that V8 must flatten.
  const parts = new Array<string>(FIELD_COUNT);
  const starts = new Array<number>(FIELD_COUNT + 1);
  let at = 1;
  for (let i = 0; i < FIELD_COUNT; i++) {
    const part = `"${EVENT_FIELDS[i]}":${JSON.stringify(obj[EVENT_FIELDS[i]])}`;
    parts[i] = part;
    starts[i] = at;
    at += part.length + 1;
  }
  starts[FIELD_COUNT] = at;
  const json = `{${parts.join(',')}}`;
  // U+2028/U+2029 are rare: test the whole event once, and only then escape field by field
  return needsEscaping(json) ? serializeEscaped(obj) : { json, starts };
}

function serializeEscaped(obj: Readonly<Record<EventField, unknown>>): { json: string; starts: number[] } {
  const parts = EVENT_FIELDS.map((f) => `"${f}":${toJson(obj[f])}`);
  const starts: number[] = [];
  let at = 1;
  for (const part of parts) {
    starts.push(at);
    at += part.length + 1;
  }
  starts.push(at);
  return { json: `{${parts.join(',')}}`, starts };
}

/** Where the serialized events live: strings, or the UTF-8 bytes of events.jsonl. */
export interface RowText {
  readonly length: number;
  text(row: number): string;
  /** the UTF-8 bytes of the row */
  bytes(row: number): Uint8Array;
}

export class StringRows implements RowText {
  constructor(private readonly lines: readonly string[]) {}
  get length(): number {
    return this.lines.length;
  }
  text(row: number): string {
    return this.lines[row];
  }
  bytes(row: number): Uint8Array {
    return Buffer.from(this.lines[row]);
  }
}

/**
 * Rows kept as the bytes of events.jsonl and decoded per use. Decoding the whole file up front
 * cost ~0.9 s at 100k events and, since the text is not Latin-1, a two-byte string of twice the
 * file's size on the heap; a 20-event page decodes ~50 KB instead.
 */
export class ByteRows implements RowText {
  private readonly ends: Uint32Array;
  constructor(private readonly buffer: Buffer) {
    const ends: number[] = [];
    if (buffer.length > 0) {
      for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) ends.push(at);
      ends.push(buffer.length);
    }
    this.ends = Uint32Array.from(ends);
  }
  get length(): number {
    return this.ends.length;
  }
  text(row: number): string {
    return this.buffer.toString('utf8', row === 0 ? 0 : this.ends[row - 1] + 1, this.ends[row]);
  }
  /** a view, not a copy */
  bytes(row: number): Uint8Array {
    return this.buffer.subarray(row === 0 ? 0 : this.ends[row - 1] + 1, this.ends[row]);
  }
}

export class EventRows {
  constructor(
    /** one serialized event per row, in list order */
    private readonly rows: RowText,
    /** rows.length × (FIELD_COUNT + 1) key offsets, see serializeEvent */
    readonly starts: Uint32Array,
  ) {
    if (starts.length !== rows.length * STRIDE) throw new Error('event offsets do not match the events');
  }

  static from(serialized: readonly { json: string; starts: number[] }[]): EventRows {
    const starts = new Uint32Array(serialized.length * STRIDE);
    serialized.forEach((s, row) => starts.set(s.starts, row * STRIDE));
    return new EventRows(new StringRows(serialized.map((s) => s.json)), starts);
  }

  get length(): number {
    return this.rows.length;
  }

  /** Whether every row looks like a whole JSON object (a truncated file does not). */
  wellFormed(): boolean {
    for (let row = 0; row < this.rows.length; row++) {
      const bytes = this.rows.bytes(row);
      if (bytes[0] !== 0x7b || bytes[bytes.length - 1] !== 0x7d) return false;
    }
    return true;
  }

  /** The whole serialized event. */
  json(row: number): string {
    return this.rows.text(row);
  }

  /** The whole serialized event as UTF-8, without decoding it. */
  bytes(row: number): Uint8Array {
    return this.rows.bytes(row);
  }

  /** `"key":value` of one field, without separators. */
  segment(row: number, field: number): string {
    const base = row * STRIDE;
    return this.rows.text(row).slice(this.starts[base + field], this.starts[base + field + 1] - 1);
  }

  /** The JSON value of one field. */
  value(row: number, field: number): string {
    const base = row * STRIDE;
    return this.rows.text(row).slice(this.starts[base + field] + KEY_PREFIX[field], this.starts[base + field + 1] - 1);
  }

  /** The whole event with one field's value replaced. */
  replaceValue(row: number, field: number, replace: (valueJson: string) => string): string {
    const text = this.rows.text(row);
    const base = row * STRIDE;
    const from = this.starts[base + field] + KEY_PREFIX[field];
    const to = this.starts[base + field + 1] - 1;
    return text.slice(0, from) + replace(text.slice(from, to)) + text.slice(to);
  }

  /**
   * The event with only the chosen fields (indexes ascending), some of them replaced:
   * `replace` maps a field index to the JSON value to write instead.
   */
  project(row: number, fields: readonly number[], replace?: ReadonlyMap<number, (valueJson: string) => string>): string {
    const text = this.rows.text(row);
    const base = row * STRIDE;
    const segment = (f: number) => text.slice(this.starts[base + f], this.starts[base + f + 1] - 1);
    let out = '{';
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (i > 0) out += ',';
      const swap = replace?.get(f);
      out += swap ? `"${EVENT_FIELDS[f]}":${swap(segment(f).slice(KEY_PREFIX[f]))}` : segment(f);
    }
    return out + '}';
  }
}
