// An event's row (store/format/event-rows.ts) written straight from the model event into bytes:
// the same bytes and offsets as serializeEventBytes(renderEvent(e, ctx)), without the rendered
// object, its one JSON string, the UTF-8 copy of that string and the scan that finds the fields in
// it. The offsets are where each field is written. What many events share (a media file's object,
// a page's breadcrumb) is serialized once per context and copied. The parse threads make every
// event's row this way (pipeline/load/parse-batch.ts); event-row.test.ts holds it to the
// rendered object's JSON.
import { toJson } from '../util/json.ts';
import { EVENT_FIELDS, type EventField } from '../model/event-fields.ts';
import type { Event } from '../model/types.ts';
import { formatInstant, offsetAt } from '../time/zone.ts';
import { breadcrumb, renderMedia, type RenderContext } from './event.ts';

export type { RenderContext } from './event.ts';

/** A row: `bytes` a view of a buffer the writer's next row reuses (copy it to keep it); `starts` serializeEvent's offsets, from the row's start. */
export interface EventRow {
  bytes: Buffer;
  starts: number[];
}

/**
 * A string that JSON.stringify writes as it is, between quotes: no quote, backslash, control
 * character or lone surrogate (escaped by JSON.stringify), no U+2028/U+2029 (escaped by toJson).
 * A surrogate pair is sent the slow way too: rare, and JSON.stringify knows the pairs.
 */
const ESCAPED = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/** Texts up to this long are written byte by byte (text()). */
const SHORT = 24;

/** Each field's `"key":` with the `{` or `,` before it, as bytes. */
const HEADS = EVENT_FIELDS.map((f, i) => Buffer.from(`${i === 0 ? '{' : ','}"${f}":`));

/**
 * Makes the rows of events rendered against `ctx` (which must not change while it is used: what
 * the events share is kept from it). Throws where renderEvent would (an event naming a media
 * record `ctx` does not hold).
 */
export function eventRowWriter(ctx: RenderContext): (e: Event) => EventRow {
  const rows = eventRows(ctx);
  return (e) => {
    rows.take(false);
    return rows.add(e);
  };
}

/** Rows written end to end (eventRows). */
export interface EventRows {
  /** Writes `e`'s row after those written since the last take (none when it throws): `bytes` a view that the next take or add may move. */
  add(e: Event): EventRow;
  /** The rows written since the last take, end to end, in a buffer of their own when `copy` (else none); the next add starts anew. */
  take(copy?: boolean): Uint8Array;
  /** The rows written since the last take, end to end: a view that the next take or add may move. */
  written(): Uint8Array;
}

/**
 * Makes rows as eventRowWriter does, each after the last, in one buffer reused from take to take:
 * a batch of rows is copied once, when it is taken, not once per row as well.
 */
export function eventRows(ctx: RenderContext): EventRows {
  const zone = ctx.site.timezone;
  const mediaJson = new Map<number, Buffer>();
  const crumbsJson = new Map<number | null, Buffer>();
  /** an offset from UTC (ms) → its text in formatInstant's */
  const offsets = new Map<number, Buffer>();
  let buf = Buffer.allocUnsafeSlow(64 << 10);
  let at = 0;

  /** Room for `more` bytes after `at` (the row so far kept). */
  const room = (more: number): void => {
    if (at + more <= buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(at + more, buf.length * 2));
    buf.copy(grown, 0, 0, at);
    buf = grown;
  };
  const put = (bytes: Uint8Array): void => {
    room(bytes.length);
    buf.set(bytes, at);
    at += bytes.length;
  };
  /** JSON text (any UTF-16: at most 3 bytes a unit). */
  const text = (s: string): void => {
    room(s.length * 3);
    if (s.length > SHORT) return void (at += buf.write(s, at));
    // a short text byte by byte while it is ASCII: cheaper than a call into Buffer.write
    const from = at;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return void (at = from + buf.write(s, from));
      buf[at++] = c;
    }
  };
  // (null and empty lists are most of the free-form fields)
  const json = (value: unknown): void => text(value === null ? 'null' : Array.isArray(value) && value.length === 0 ? '[]' : toJson(value));
  const string = (s: unknown): void => {
    if (typeof s !== 'string' || ESCAPED.test(s)) return json(s);
    room(s.length * 3 + 2);
    buf[at++] = 0x22;
    at += buf.write(s, at);
    buf[at++] = 0x22;
  };
  const nullableString = (s: unknown): void => (s === null ? text('null') : string(s));
  // (what JSON.stringify writes for a finite number is its String; null, booleans as their words)
  const number = (n: unknown): void => (typeof n === 'number' && Number.isFinite(n) ? text(String(n)) : json(n));
  const boolean = (b: unknown): void => (b === true ? text('true') : b === false ? text('false') : json(b));
  const digits = (n: number, width: number): void => {
    for (let i = width - 1; i >= 0; i--, n = Math.floor(n / 10)) buf[at + i] = 0x30 + (n % 10);
    at += width;
  };
  /** formatInstant's text between quotes, its digits written here (a year outside 0…9999 is left to it). */
  const instant = (t: number): void => {
    const offset = offsetAt(t, zone);
    const l = new Date(t + offset);
    const year = l.getUTCFullYear();
    if (!(year >= 0 && year <= 9999)) return string(formatInstant(t, zone));
    room(40);
    buf[at++] = 0x22;
    digits(year, 4);
    buf[at++] = 0x2d; // -
    digits(l.getUTCMonth() + 1, 2);
    buf[at++] = 0x2d;
    digits(l.getUTCDate(), 2);
    buf[at++] = 0x54; // T
    digits(l.getUTCHours(), 2);
    buf[at++] = 0x3a; // :
    digits(l.getUTCMinutes(), 2);
    buf[at++] = 0x3a;
    digits(l.getUTCSeconds(), 2);
    const ms = l.getUTCMilliseconds();
    if (ms !== 0) {
      buf[at++] = 0x2e; // .
      digits(ms, 3);
      digits(0, 3);
    }
    let zoneText = offsets.get(offset);
    // formatInstant's offset: its text after the seconds and the fraction, the same at every instant of that offset
    if (zoneText === undefined) offsets.set(offset, (zoneText = Buffer.from(formatInstant(t, zone).slice(ms === 0 ? 19 : 26))));
    put(zoneText);
    room(1);
    buf[at++] = 0x22;
  };
  const media = (id: number): void => {
    let bytes = mediaJson.get(id);
    if (bytes === undefined) mediaJson.set(id, (bytes = Buffer.from(toJson(renderMedia(ctx.media.get(id)!, ctx.baseUrl)))));
    put(bytes);
  };
  const mediaList = (ids: readonly number[]): void => {
    // the `[` and, for no media, its `]` (each media's room(1) reserves the byte after it)
    room(2);
    buf[at++] = 0x5b; // [
    for (let i = 0; i < ids.length; i++) {
      if (i > 0) buf[at++] = 0x2c;
      media(ids[i]);
      room(1);
    }
    buf[at++] = 0x5d;
  };

  const fields: Record<EventField, (e: Event) => void> = {
    id: (e) => number(e.id),
    url: (e) => nullableString(e.url),
    media: (e) => mediaList(e.media),
    gallery: (e) => json(e.gallery),
    contact_box: (e) => json(e.contact_box),
    breadcrumb: (e) => {
      let bytes = crumbsJson.get(e.page);
      if (bytes === undefined) crumbsJson.set(e.page, (bytes = Buffer.from(toJson(breadcrumb(e.page, ctx.pages)))));
      put(bytes);
    },
    categories: (e) => json(e.categories),
    groups: (e) => json(e.groups),
    link: (e) => nullableString(e.link),
    header_image: (e) => (e.header_image === null ? text('null') : media(e.header_image)),
    related_links: (e) => json(e.related_links),
    related_media: (e) => {
      const list = e.related_media;
      text('[');
      list.forEach((r, i) => {
        text(i === 0 ? '{"id":' : ',{"id":');
        number(r.id);
        text(',"media":');
        media(r.media);
        text(',"datetime":');
        instant(r.datetime);
        text(',"title":');
        nullableString(r.title);
        text(',"description":');
        nullableString(r.description);
        text('}');
      });
      text(']');
    },
    start: (e) => instant(e.start),
    end: (e) => instant(e.end),
    allday: (e) => boolean(e.allday),
    title: (e) => string(e.title),
    organizer: (e) => nullableString(e.organizer),
    location: (e) => nullableString(e.location),
    teaser: (e) => string(e.teaser),
    body: (e) => string(e.body),
    keywords: (e) => json(e.keywords),
    description: (e) => json(e.description),
    register: (e) => boolean(e.register),
    registration_end: (e) => (e.registration_end === null ? text('null') : instant(e.registration_end)),
    attending_fees: (e) => boolean(e.attending_fees),
    attending_fees_info: (e) => nullableString(e.attending_fees_info),
    dfp_points: (e) => (e.dfp_points === null ? text('null') : number(e.dfp_points)),
    contact: (e) => nullableString(e.contact),
    email: (e) => nullableString(e.email),
    last_modified: (e) => instant(e.last_modified),
    language: (e) => json(e.language),
  };
  const writers = EVENT_FIELDS.map((f) => fields[f]);

  const row = (e: Event, from: number): EventRow => {
    const starts: number[] = [];
    for (let f = 0; f < writers.length; f++) {
      // the offset of the field's `"key":` in the row, after the `{` or `,` before it
      starts.push(at - from + 1);
      put(HEADS[f]);
      writers[f](e);
    }
    room(1);
    buf[at++] = 0x7d; // }
    starts.push(at - from);
    return { bytes: buf.subarray(from, at), starts };
  };
  return {
    add(e) {
      const from = at;
      try {
        return row(e, from);
      } catch (error) {
        at = from;
        throw error;
      }
    },
    take(copy = true) {
      const rows = copy ? new Uint8Array(buf.subarray(0, at)) : EMPTY;
      at = 0;
      // (a batch of very long rows does not leave its room held for good)
      if (buf.length > MOST_ROOM_KEPT) buf = Buffer.allocUnsafeSlow(64 << 10);
      return rows;
    },
    written: () => buf.subarray(0, at),
  };
}

const EMPTY = new Uint8Array(0);
const MOST_ROOM_KEPT = 16 << 20;
