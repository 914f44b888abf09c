import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { Parsed } from '../../content/records.ts';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import type { Event } from '../../model/types.ts';
import { EVENT_TEXTS, hasTexts } from '../../model/event-texts.ts';
import { serializeEventBytes } from '../../store/format/event-rows.ts';
import { decodeParse, TextsApart } from './parse-payload.ts';

/** A row's bytes and offsets as serializeEventBytes makes them, of `e`'s fields (null where it has none). */
function rowOf(e: Record<string, unknown>) {
  return serializeEventBytes(Object.fromEntries(EVENT_FIELDS.map((f) => [f, e[f] ?? null])) as Parameters<typeof serializeEventBytes>[0]);
}

const texts = (body: string) => ({
  title: 'Ärzte „heute“', organizer: null, location: 'Hörsaal 1\u2028b', teaser: 'x "q" \\ y', body, attending_fees_info: '', contact: 'C', email: null,
});

describe('parse payloads', () => {
  it('are v8.serialize of the parse unless texts are carried apart', () => {
    const parsed: Parsed<unknown> = { records: [{ value: { id: 1, ...texts('b') }, file: 'a.yaml', item: null }], problems: [] };
    const payload = serialize(parsed);
    expect(decodeParse(payload, true)).toEqual(parsed);
    expect(decodeParse(payload, false)).toEqual(parsed);
  });

  it('carry the events’ texts apart as their rows hold them: absent from the events, or given back whole', () => {
    const events = [{ id: 1, ...texts('<p>„eins“ – zwei</p>') }, { id: 2, ...texts('x'.repeat(70_000)) }];
    const parsed = { records: events.map((value, i) => ({ value: { ...value }, file: 'events/a.yaml', item: i })), problems: [] } as unknown as Parsed<Event>;
    const apart = new TextsApart();
    apart.begin();
    for (const e of events) {
      // a stand-in for the event's row: every field in EVENT_FIELDS order (the texts matter)
      const row = rowOf(e);
      apart.add(row.bytes, row.starts);
    }
    const payload = Buffer.concat(apart.parts(parsed));
    expect(payload[0]).toBe(0);
    // the parse's own records keep their texts (a copy of each is serialized without them)
    expect(parsed.records.map((r) => r.value)).toEqual(events);
    const whole = decodeParse(payload, true) as Parsed<Event>;
    expect(whole.records.map((r) => r.value)).toEqual(events);
    const slim = decodeParse(payload, false) as Parsed<Event>;
    // absent, not blank
    expect(slim.records.some((r) => hasTexts(r.value) || EVENT_TEXTS.some((f) => f in r.value))).toBe(false);
    expect(slim.records.map((r) => r.value.id)).toEqual([1, 2]);
    // damaged texts are refused, never given back wrong
    expect(() => decodeParse(Buffer.concat([payload.subarray(0, payload.length - 2), Buffer.from(']')]), true)).toThrow();
    expect(() => decodeParse(Buffer.concat([payload.subarray(0, payload.length - 1), Buffer.from(',[]]')]), true)).toThrow(/do not fit/);
  });
  it('of several files made by one TextsApart each hold their own texts, however the scratch grew between them', () => {
    const fileOf = (name: string, bodies: string[]) =>
      ({ records: bodies.map((b, i) => ({ value: { id: i, ...texts(b) }, file: name, item: i })), problems: [] }) as unknown as Parsed<Event>;
    const apart = new TextsApart();
    const made = (parsed: Parsed<Event>) => {
      apart.begin();
      for (const r of parsed.records) {
        const row = rowOf(r.value as unknown as Record<string, unknown>);
        apart.add(row.bytes, row.starts);
      }
      return apart.parts(parsed);
    };
    const a = fileOf('a.yaml', ['eins', 'zwei']);
    const aParts = made(a);
    const aBefore = Buffer.concat(aParts);
    // a file begun and given up (one of its events had no row): its texts are dropped
    apart.begin();
    const dropped = rowOf(fileOf('x.yaml', ['nie']).records[0].value as unknown as Record<string, unknown>);
    apart.add(dropped.bytes, dropped.starts);
    // larger than the scratch: it grows, and a's parts, handed out before, are unchanged
    const b = fileOf('b.yaml', ['y'.repeat(100_000), 'drei']);
    const bPayload = Buffer.concat(made(b));
    expect(Buffer.concat(aParts).equals(aBefore)).toBe(true);
    expect((decodeParse(aBefore, true) as Parsed<Event>).records.map((r) => r.value.body)).toEqual(['eins', 'zwei']);
    expect((decodeParse(bPayload, true) as Parsed<Event>).records.map((r) => r.value.body)).toEqual(['y'.repeat(100_000), 'drei']);
  });
  it('leave the texts out for a build without a cache: decoded without them as a kept payload is, refused with them', () => {
    const events = [{ id: 1, ...texts('<p>eins</p>') }, { id: 2, ...texts('zwei') }];
    const parsed = { records: events.map((value, i) => ({ value: { ...value }, file: 'events/a.yaml', item: i })), problems: [] } as unknown as Parsed<Event>;
    const payloadOf = (apart: TextsApart) => {
      apart.begin();
      for (const e of events) {
        const row = rowOf(e);
        apart.add(row.bytes, row.starts);
      }
      return Buffer.concat(apart.parts(parsed));
    };
    const kept = payloadOf(new TextsApart());
    const slim = payloadOf(new TextsApart(false));
    expect(slim.length).toBeLessThan(kept.length);
    expect(decodeParse(slim, false)).toEqual(decodeParse(kept, false));
    expect(() => decodeParse(slim, true)).toThrow(/do not fit/);
  });
});
