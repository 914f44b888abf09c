import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS, mediaUrl, type EventField } from '../../model/event-fields.ts';
import { EventRows, serializeEvent } from '../format/event-rows.ts';
import { rebaseRows } from './rebase-rows.ts';

const FROM = 'http://127.0.0.1:8000';
const TO = 'https://example.org/some/longer/path';

const file = (base: string, id: number) => ({ url: mediaUrl(base, id), original: null, mimetype: 'image/png', filename: `f ${id}.png`, size: 10 * id });

/** An event with every field, in table order. */
function event(i: number, base: string): Record<EventField, unknown> {
  const o = Object.fromEntries(EVENT_FIELDS.map((f) => [f, null])) as Record<EventField, unknown>;
  Object.assign(o, {
    id: i,
    // an event's own link that looks like a media URL: not a media object, kept as written
    url: i % 3 === 0 ? mediaUrl(FROM, 5) : null,
    media: Array.from({ length: i % 4 }, (_, k) => file(base, 100 + k)),
    header_image: i % 2 ? file(base, 7) : null,
    related_media: i % 5 ? [{ id: i, media: file(base, 9), datetime: null, title: 'Mitschnitt „ü“ \u2028', description: null }] : [],
    title: `Veranstaltung ${i}`,
    // a body quoting a media object's JSON: escaped, so never a key
    body: `<p>"url":"${mediaUrl(FROM, 3)}" ${'ä'.repeat(i % 50)}</p>`,
    categories: [],
  });
  return o;
}

const rowsOf = (base: string, count: number) => EventRows.from(Array.from({ length: count }, (_, i) => serializeEvent(event(i, base))));

describe('rebaseRows', () => {
  it('writes the rows a build with the other base URL writes: media URLs rewritten, nothing else', () => {
    // more rows than one chunk of the rewrite holds
    const rebased = rebaseRows(rowsOf(FROM, 4100), FROM, TO);
    const built = rowsOf(TO, 4100);
    expect(rebased.lineBytes.equals(built.lineBytes)).toBe(true);
    expect(Buffer.from(Uint32Array.from(rebased.starts).buffer).equals(Buffer.from(built.starts.buffer))).toBe(true);
    // the event's own url and the body's quote stay
    expect(JSON.parse(rebased.json(3)).url).toBe(mediaUrl(FROM, 5));
    expect(JSON.parse(rebased.json(3)).body).toContain(mediaUrl(FROM, 3));
    expect(JSON.parse(rebased.json(3)).media[0].url).toBe(mediaUrl(TO, 100));
  });

  it('works to a shorter base URL and back, and over rows without media', () => {
    const there = rebaseRows(rowsOf(TO, 25), TO, FROM);
    expect(there.lineBytes.equals(rowsOf(FROM, 25).lineBytes)).toBe(true);
    expect(rebaseRows(there, FROM, TO).lineBytes.equals(rowsOf(TO, 25).lineBytes)).toBe(true);
    const none = rowsOf(FROM, 1);
    expect(rebaseRows(none, FROM, TO).lineBytes.equals(none.lineBytes)).toBe(true);
    expect(rebaseRows(EventRows.from([]), FROM, TO).length).toBe(0);
  });
});
