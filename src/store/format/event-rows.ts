// Pre-serialized events. Each event is serialized once (at build time) into one line of UTF-8
// JSON; the byte offset of each key is recorded, so answers are joined from byte slices —
// whole events, sparse fields, an expanded value spliced in — without decoding or
// re-serializing anything per request.
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';
import { needsEscaping, toJson } from './json.ts';

export const FIELD_COUNT = EVENT_FIELDS.length;
const STRIDE = FIELD_COUNT + 1;
const FIELD_INDEX = new Map<string, number>(EVENT_FIELDS.map((f, i) => [f, i]));
/** length of `"key":` per field (keys are ASCII) */
const KEY_PREFIX = EVENT_FIELDS.map((f) => f.length + 3);
const COMMA = Buffer.from(',');
const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

export function fieldIndex(field: string): number | undefined {
  return FIELD_INDEX.get(field);
}

/**
 * Serializes a rendered event. `starts[i]` is the UTF-8 byte offset of field i's `"key":`
 * within the line, `starts[FIELD_COUNT]` the line's byte length.
 */
export function serializeEvent(obj: Readonly<Record<EventField, unknown>>): { json: string; starts: number[] } {
  // Parts joined once: repeated `+=` builds a rope of 60 pieces per event that V8 must flatten.
  const plain = EVENT_FIELDS.map((f) => `"${f}":${JSON.stringify(obj[f])}`);
  // U+2028/U+2029 are rare: test the whole event once, and only then escape field by field
  const json = `{${plain.join(',')}}`;
  const parts = needsEscaping(json) ? EVENT_FIELDS.map((f) => `"${f}":${toJson(obj[f])}`) : plain;
  const starts: number[] = [];
  let at = 1;
  for (const part of parts) {
    starts.push(at);
    at += Buffer.byteLength(part) + 1;
  }
  starts.push(at);
  return { json: parts === plain ? json : `{${parts.join(',')}}`, starts };
}

export class EventRows {
  /** byte offset of each row's line in `lines` */
  private readonly lineStarts: Float64Array;

  /**
   * `lines`: the UTF-8 of events.jsonl, one event per line in list order; `starts`: rows ×
   * (FIELD_COUNT + 1) byte offsets from serializeEvent. Throws when the two do not fit
   * together (a truncated or mismatched file).
   */
  constructor(
    private readonly lines: Buffer,
    readonly starts: Uint32Array,
  ) {
    if (starts.length % STRIDE !== 0) throw new Error('event offsets are not whole rows');
    const count = starts.length / STRIDE;
    this.lineStarts = new Float64Array(count);
    let at = 0;
    for (let row = 0; row < count; row++) {
      const length = starts[row * STRIDE + FIELD_COUNT];
      const end = at + length;
      if (end > lines.length || lines[at] !== 0x7b || lines[end - 1] !== 0x7d || (end < lines.length && lines[end] !== 0x0a)) {
        throw new Error(`event ${row} does not fit its offsets`);
      }
      this.lineStarts[row] = at;
      at = end + 1;
    }
    if (Math.max(at - 1, 0) !== lines.length) throw new Error('events and offsets differ in length');
  }

  static from(serialized: readonly { json: string; starts: number[] }[]): EventRows {
    const starts = new Uint32Array(serialized.length * STRIDE);
    serialized.forEach((s, row) => starts.set(s.starts, row * STRIDE));
    return new EventRows(Buffer.from(serialized.map((s) => s.json).join('\n')), starts);
  }

  get length(): number {
    return this.lineStarts.length;
  }

  /** events.jsonl as written */
  get lineBytes(): Buffer {
    return this.lines;
  }

  /** The whole serialized event as UTF-8: a view, not a copy. */
  bytes(row: number): Buffer {
    const at = this.lineStarts[row];
    return this.lines.subarray(at, at + this.starts[row * STRIDE + FIELD_COUNT]);
  }

  /** The whole serialized event, decoded. */
  json(row: number): string {
    return this.bytes(row).toString('utf8');
  }

  /** `"key":value` of one field as UTF-8, without separators. */
  private segment(row: number, field: number): Buffer {
    const at = this.lineStarts[row];
    const base = row * STRIDE;
    return this.lines.subarray(at + this.starts[base + field], at + this.starts[base + field + 1] - 1);
  }

  /** The JSON value of one field. */
  value(row: number, field: number): string {
    return this.segment(row, field).subarray(KEY_PREFIX[field]).toString('utf8');
  }

  /**
   * The event with only the chosen fields (indexes ascending), some of them replaced:
   * `replace` maps a field index to the JSON value to write instead.
   */
  project(row: number, fields: readonly number[], replace?: ReadonlyMap<number, (valueJson: string) => string>): Buffer {
    const parts: Uint8Array[] = [OPEN];
    fields.forEach((f, i) => {
      if (i > 0) parts.push(COMMA);
      const swap = replace?.get(f);
      parts.push(swap ? Buffer.from(`"${EVENT_FIELDS[f]}":${swap(this.value(row, f))}`) : this.segment(row, f));
    });
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }

  /** The whole event with one field's value replaced. */
  replaceValue(row: number, field: number, replace: (valueJson: string) => string): Buffer {
    const whole = this.bytes(row);
    const base = row * STRIDE;
    const from = this.starts[base + field] + KEY_PREFIX[field];
    const to = this.starts[base + field + 1] - 1;
    return Buffer.concat([whole.subarray(0, from), Buffer.from(replace(whole.subarray(from, to).toString('utf8'))), whole.subarray(to)]);
  }
}
