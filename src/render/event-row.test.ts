import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedModel, removeDir, tempDir } from '../../test/helpers.ts';
import type { Event, Model } from '../model/types.ts';
import { serializeEventBytes } from '../store/format/event-rows.ts';
import { eventRows, eventRowWriter } from './event-row.ts';
import { renderEvent, type RenderContext } from './event.ts';

let root: string;
let model: Model;
let ctx: RenderContext;
beforeAll(async () => {
  root = tempDir('aula-event-row-');
  model = await generatedModel(root, { events: 300, directory: 5, seed: 4 });
  ctx = { site: model.site, baseUrl: 'https://example.org/x', pages: model.pages, media: model.media };
});
afterAll(() => removeDir(root));

/** The row as the rendered object's JSON makes it, copied (its buffer is reused). */
function rendered(e: Event, context: RenderContext): { bytes: Buffer; starts: number[] } {
  const row = serializeEventBytes(renderEvent(e, context));
  return { bytes: Buffer.from(row.bytes), starts: row.starts };
}

function expectSameRow(write: (e: Event) => { bytes: Buffer; starts: number[] }, e: Event, context: RenderContext): void {
  const want = rendered(e, context);
  const got = write(e);
  expect(got.bytes.toString('utf8')).toBe(want.bytes.toString('utf8'));
  expect(got.bytes.equals(want.bytes)).toBe(true);
  expect(got.starts).toEqual(want.starts);
}

describe('eventRowWriter', () => {
  it("writes each generated event's row as the rendered object's JSON, byte for byte, with its offsets", () => {
    const write = eventRowWriter(ctx);
    // twice: the second time from what the writer kept of the first (media, breadcrumbs, offsets)
    for (let pass = 0; pass < 2; pass++) for (const e of model.events) expectSameRow(write, e, ctx);
  });

  it('writes any text, number and time as JSON.stringify does (escapes, U+2028, lone surrogates, fractions, far years, odd offsets)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'ä', '"', '\\', '\n', '\x00', '\x1f', '\x7f', '\u2028', '\u2029', '\ud83c', '\udf89', '\u{1F389}', '€', ' '), maxLength: 40 });
    const nullable = fc.option(text, { nil: null });
    // year 1 to 9999 and beyond what formatInstant writes in four digits; ms fractions
    const instant = fc.integer({ min: -62135596800000, max: 253402300799999 });
    const zones = ['Europe/Vienna', 'UTC', 'Europe/Berlin', 'America/St_Johns', 'Asia/Kolkata', 'Africa/Monrovia'];
    const base = model.events[0];
    fc.assert(
      fc.property(
        fc.record({
          title: text,
          body: text,
          teaser: text,
          organizer: nullable,
          location: nullable,
          url: nullable,
          attending_fees_info: nullable,
          start: instant,
          end: instant,
          last_modified: instant,
          registration_end: fc.option(instant, { nil: null }),
          dfp_points: fc.option(fc.oneof(fc.integer(), fc.double({ noNaN: false })), { nil: null }),
          keywords: fc.jsonValue(),
          groups: fc.array(fc.jsonValue(), { maxLength: 3 }),
          zone: fc.constantFrom(...zones),
          related: fc.array(fc.record({ id: fc.nat(), datetime: instant, title: nullable, description: nullable }), { maxLength: 3 }),
        }),
        ({ zone, related, ...fields }) => {
          const context = { ...ctx, site: { ...ctx.site, timezone: zone } };
          const media = [...ctx.media.keys()][0];
          const e: Event = { ...base, ...fields, related_media: related.map((r) => ({ ...r, media })) };
          expectSameRow(eventRowWriter(context), e, context);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('throws where renderEvent does (a media record the context does not hold), and the next row is whole', () => {
    const write = eventRowWriter(ctx);
    const [a, b] = model.events;
    expect(() => renderEvent({ ...a, media: [987654] }, ctx)).toThrow();
    expect(() => write({ ...a, media: [987654] })).toThrow();
    expectSameRow(write, b, ctx);
  });

  it('grows its buffer for a row larger than it', () => {
    const write = eventRowWriter(ctx);
    const e = { ...model.events[0], body: `<p>${'ä"'.repeat(100_000)}</p>` };
    expectSameRow(write, e, ctx);
    expectSameRow(write, model.events[1], ctx);
  });

  it("writes every byte of a row that crosses the end of the writer's first buffer (each field's last byte reserved)", () => {
    const base = model.events.find((e) => e.media.length > 0)!;
    // the url's length moves every later byte of the row over the end of the 64 KiB buffer in turn;
    // three-byte characters use all the room a text reserves (three bytes a unit), so the buffer is
    // not grown early by the url itself
    for (const media of [[], base.media]) {
      const e: Event = { ...base, media };
      const tail = rendered({ ...e, url: '' }, ctx).bytes.length;
      for (let k = Math.floor(((64 << 10) - tail) / 3) - 8; k <= (64 << 10) / 3; k++) {
        for (const rest of ['', 'a', 'ab']) {
          const long = { ...e, url: '漢'.repeat(k) + rest };
          expect(eventRowWriter(ctx)(long).bytes.equals(rendered(long, ctx).bytes)).toBe(true);
        }
      }
    }
  });
});

describe('eventRows', () => {
  it('writes rows end to end, each as eventRowWriter does; one that throws leaves nothing; take copies them out and starts anew', () => {
    const rows = eventRows(ctx);
    const events = model.events.slice(0, 40);
    // large enough, twice over, to grow the buffer the rows are written into
    const long = { ...events[1], body: `<p>${'ä"'.repeat(40_000)}</p>` };
    for (const batch of [events, [events[0], long, long, events[2]]]) {
      const want: Buffer[] = [];
      for (const e of batch) {
        expect(() => rows.add({ ...e, media: [987654] })).toThrow();
        const row = rows.add(e);
        expect(row.starts).toEqual(rendered(e, ctx).starts);
        want.push(rendered(e, ctx).bytes);
      }
      const taken = rows.take();
      expect(Buffer.from(taken).equals(Buffer.concat(want))).toBe(true);
      // its own buffer, to be transferred
      expect([taken.byteOffset, taken.buffer.byteLength]).toEqual([0, taken.byteLength]);
    }
    expect(rows.take().byteLength).toBe(0);
  });
});
