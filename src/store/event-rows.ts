// Pre-serialized events. Each event is serialized once (at build time) into one JSON string;
// the start of each key is recorded so that sparse fields and expansion can splice segments
// instead of re-serializing objects per request.
import { EVENT_FIELDS, type EventField } from '../render/event.ts';
import { toJson } from '../render/json.ts';

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
  const starts: number[] = [];
  let json = '{';
  EVENT_FIELDS.forEach((field, i) => {
    if (i > 0) json += ',';
    starts.push(json.length);
    json += `"${field}":${toJson(obj[field])}`;
  });
  json += '}';
  starts.push(json.length);
  return { json, starts };
}

export class EventRows {
  constructor(
    /** one serialized event per row, in list order */
    readonly json: readonly string[],
    /** json.length × (FIELD_COUNT + 1) key offsets, see serializeEvent */
    readonly starts: Uint32Array,
  ) {
    if (starts.length !== json.length * STRIDE) throw new Error('event offsets do not match the events');
  }

  static from(serialized: readonly { json: string; starts: number[] }[]): EventRows {
    const starts = new Uint32Array(serialized.length * STRIDE);
    serialized.forEach((s, row) => starts.set(s.starts, row * STRIDE));
    return new EventRows(serialized.map((s) => s.json), starts);
  }

  get length(): number {
    return this.json.length;
  }

  /** `"key":value` of one field, without separators. */
  segment(row: number, field: number): string {
    const base = row * STRIDE;
    return this.json[row].slice(this.starts[base + field], this.starts[base + field + 1] - 1);
  }

  /** The JSON value of one field. */
  value(row: number, field: number): string {
    const base = row * STRIDE;
    return this.json[row].slice(this.starts[base + field] + KEY_PREFIX[field], this.starts[base + field + 1] - 1);
  }

  /**
   * The event with only the chosen fields (indexes ascending), some of them replaced:
   * `replace` maps a field index to the JSON value to write instead.
   */
  project(row: number, fields: readonly number[], replace?: ReadonlyMap<number, (valueJson: string) => string>): string {
    let out = '{';
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (i > 0) out += ',';
      const swap = replace?.get(f);
      out += swap ? `"${EVENT_FIELDS[f]}":${swap(this.value(row, f))}` : this.segment(row, f);
    }
    return out + '}';
  }
}
