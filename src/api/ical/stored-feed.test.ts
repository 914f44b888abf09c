import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryOf } from '../../store/format/calendar-file.ts';
import { calendarOfParts } from '../../store/read/calendar-file.ts';
import { calendarFile } from '../../store/write/calendar-file.ts';
import { END_INSTANT, FIRST_INSTANT, isWritable } from '../../time/range.ts';
import { formatInstant } from '../../time/zone.ts';
import { entryBody, renderCalendar, type CalendarOptions, type EntryFields, type RenderedEvent } from './feed.ts';
import { escapeText } from './lines.ts';
import { assembleCalendar, type StoredEntries } from './stored-feed.ts';
import { ZoneOffsets } from './zone-offsets.ts';

const HOUR = 3_600_000;
const ZONES = ['Europe/Vienna', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC', 'Asia/Kolkata'];

// Text that folds at awkward places: multibyte characters (2, 3 and 4 octets of UTF-8), what TEXT
// escapes, line breaks, controls, a lone surrogate; long enough to fold several times.
const piece = fc.constantFrom('a', 'Z', ' ', ',', ';', '\\', ':', '"', '^', 'ä', 'ß', '€', '✓', '\u{1F389}', '\n', '\r\n', '\r', '\t', '\x01', '\ud800', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
const text = fc.oneof(fc.string({ unit: piece, maxLength: 120 }), fc.string({ maxLength: 40 }), fc.constant(''));
const optionalText = fc.oneof(text, fc.constant(null));

/** Instants where DST changes repeat or skip wall times, at the ends of the calendar, and anywhere. */
const instant = fc.oneof(
  fc.constantFrom(Date.UTC(2025, 9, 26, 0, 30), Date.UTC(2025, 9, 26, 1, 0), Date.UTC(2025, 2, 30, 1, 0), Date.UTC(2025, 10, 2, 5, 30), Date.UTC(2025, 3, 6, 14, 45)),
  fc.integer({ min: Date.UTC(2025, 9, 25), max: Date.UTC(2025, 9, 27) }).map((t) => t - (t % 1000)),
  fc.integer({ min: Date.UTC(1800, 0, 1), max: Date.UTC(2200, 0, 1) }).map((t) => t - (t % 60_000)),
  fc.constantFrom(FIRST_INSTANT, FIRST_INSTANT + 14 * HOUR, END_INSTANT - 15 * HOUR, END_INSTANT - 1000, END_INSTANT - 48 * HOUR),
);

const event = fc.record({
      id: fc.nat(1_000_000),
      start: instant,
      length: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 72 }).map((h) => h * HOUR), fc.integer({ min: 0, max: 400 * 24 }).map((h) => h * HOUR)),
      allday: fc.boolean(),
      title: text,
      teaser: optionalText,
      location: optionalText,
      url: optionalText,
      link: optionalText,
      organizer: optionalText,
      contact: optionalText,
      email: optionalText,
      categories: fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 6 }),
      modified: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2030, 0, 1) }).map((t) => t - (t % 1000)),
      instants: fc.boolean(),
    });

const host = fc.oneof(
  fc.constant('events.example.at'),
  fc.integer({ min: 1, max: 200 }).map((n) => `${'a'.repeat(n)}.example.org`),
  fc.constantFrom('127.0.0.1:8080', '[::1]:3000', 'xn--mnchen-3ya.de', 'ä.example'),
);

describe('a feed assembled from the stored entries (data/calendar/)', () => {
  it('is byte for byte renderCalendar of the same events: folding, multibyte text, long hosts, all-day and timed, DST repeats, empty fields, categories', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(event, { maxLength: 12 }),
        host,
        fc.dictionary(fc.constantFrom('1', '2', '3', '4', '5'), text),
        text,
        (zoneName, made, hostName, titleById, name) => {
          const events = made.filter((e) => isWritable(e.start, zoneName) && isWritable(e.start + e.length, zoneName));
          const titles = new Map(Object.entries(titleById).map(([id, title]) => [Number(id), title]));
          const options: CalendarOptions = { timezone: zoneName, name, baseUrl: `https://${hostName}/api`, now: new Date(Date.UTC(2025, 5, 1, 12, 34, 56, 789)), categoryTitles: titles };
          const rendered: RenderedEvent[] = events.map((e) => ({
            id: e.id,
            start: formatInstant(e.start, zoneName),
            end: formatInstant(e.start + e.length, zoneName),
            last_modified: formatInstant(e.modified, zoneName),
            ...(e.instants ? { instants: { start: e.start, end: e.start + e.length, last_modified: e.modified } } : {}),
            allday: e.allday,
            title: e.title,
            teaser: e.teaser,
            location: e.location,
            url: e.url,
            link: e.link,
            organizer: e.organizer,
            contact: e.contact,
            email: e.email,
            categories: e.categories,
          }));
          const want = Buffer.from(renderCalendar(rendered, options));

          // the build's side: each event's lines by the one formatter, into the file, read back
          const zone = new ZoneOffsets(zoneName, []);
          const fields: EntryFields[] = events.map((e) => ({ ...e, end: e.start + e.length, last_modified: e.modified }));
          const file = calendarOfParts([{ name: '1', rows: events.length }], () => calendarFile(events.length, (i) => new TextEncoder().encode(entryBody(fields[i], zone))));
          const stored: StoredEntries = {
            count: events.length,
            id: (i) => events[i].id,
            start: (i) => events[i].start,
            end: (i) => events[i].start + events[i].length,
            allday: (i) => events[i].allday,
            body: (i) => entryOf(file, i),
            categories: (i) => (events[i].categories.length ? events[i].categories.map((c) => (titles.has(c) ? escapeText(titles.get(c)!) : String(c))).join(',') : null),
          };
          const got = assembleCalendar(stored, options);
          expect(got.equals(want)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
