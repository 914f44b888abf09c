import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { Parsed } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { EVENT_TEXTS, hasTexts } from '../../model/event-texts.ts';
import { decodeParse, textlessPayload } from './parse-payload.ts';

const texts = (body: string) => ({
  title: 'Ärzte „heute“', organizer: null, location: 'Hörsaal 1\u2028b', teaser: 'x "q" \\ y', body, attending_fees_info: '', contact: 'C', email: null,
});

describe('parse payloads', () => {
  it('are v8.serialize of the parse unless its texts are left out', () => {
    const parsed: Parsed<unknown> = { records: [{ value: { id: 1, ...texts('b') }, file: 'a.yaml', item: null }], problems: [] };
    expect(decodeParse(serialize(parsed))).toEqual(parsed);
  });

  it('leave the events’ texts out (their rows hold them): absent from the events decoded, kept on the parse', () => {
    const events = [{ id: 1, ...texts('<p>„eins“ – zwei</p>') }, { id: 2, ...texts('x'.repeat(70_000)) }];
    const parsed = { records: events.map((value, i) => ({ value: { ...value }, file: 'events/a.yaml', item: i })), problems: [{ file: 'events/a.yaml', line: 1, column: 1, key: '', message: 'm' }] } as unknown as Parsed<Event>;
    const payload = Buffer.concat(textlessPayload(parsed));
    expect(payload[0]).toBe(0);
    expect(payload.length).toBeLessThan(70_000);
    // the parse's own records keep their texts (a copy of each is serialized without them)
    expect(parsed.records.map((r) => r.value)).toEqual(events);
    const slim = decodeParse(payload) as Parsed<Event>;
    // absent, not blank
    expect(slim.records.some((r) => hasTexts(r.value) || EVENT_TEXTS.some((f) => f in r.value))).toBe(false);
    expect(slim.records.map((r) => r.value.id)).toEqual([1, 2]);
    expect(slim.problems).toEqual(parsed.problems);
  });
});
