import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedModel, removeDir, tempDir } from '../../../test/helpers.ts';
import type { Event, Model } from '../../model/types.ts';
import { wholeEvent, type TextlessEvent } from '../../model/event-texts.ts';
import { compareListOrder, renderEvent, type RenderContext } from '../../render/event.ts';
import { serializeEvent } from '../../store/format/event-rows.ts';
import { renderRows } from '../../store/write/data-files.ts';
import { RowsFile } from '../load/parse-batch.ts';
import { KeyedStore } from '../cache/keyed-store.ts';
import { cachedRows, ROW_ENTRY_HEAD, rowKeyer, rowHash, rowsFileHeader, type PremadeRow, type RowsCacheStats } from './render-cache.ts';
import { RowsScratch } from './rows-scratch.ts';

const root = tempDir('aula-rows-');
afterAll(() => removeDir(root));

let model: Model;
let events: Event[];
let ctx: RenderContext;
beforeAll(async () => {
  model = await generatedModel(root, { events: 60, directory: 5, seed: 3 });
  events = [...model.events].sort(compareListOrder);
  ctx = { site: model.site, baseUrl: 'https://example.org', pages: model.pages, media: model.media };
});

/** rowKeyer over `events`, each from the file whose parse key `sourceKeyOf` gives. */
function eventKeys(events: readonly TextlessEvent[], ctx: RenderContext, sourceKeyOf: (e: TextlessEvent) => Uint8Array): Buffer[] {
  const keyOf = rowKeyer(ctx);
  return events.map((e) => keyOf(e, sourceKeyOf(e)));
}

/** The rows file at `path` as the rows cache reads it: its entries counted, and whether it was read to its end. */
function readRows(path: string): { count: number; whole: boolean } {
  const store = new KeyedStore(path, rowsFileHeader());
  const read = { count: store.count, whole: store.whole };
  store.close();
  return read;
}
const stats = (): RowsCacheStats => ({ reused: 0, rendered: 0, corrupt: 0 });
/** Each event as if read from a file of its own whose parse key follows from the record: an edited record is an edited file. */
const sourceOf = (e: TextlessEvent) => createHash('sha256').update(JSON.stringify(e)).digest();
const hex = (keys: Buffer[]) => keys.map((k) => k.toString('hex'));
/** A row's hash as rendered from scratch; and a build's hashes, one per row. */
const hashOf = (e: Event) => rowHash(Buffer.from(serializeEvent(renderEvent(e, ctx)).json));
const split = (hashes: Buffer) => Array.from({ length: hashes.length / 32 }, (_, i) => hashes.subarray(i * 32, (i + 1) * 32));

describe('eventKeys', () => {
  it("change with the whole render context, and with one event's source only for its row", () => {
    const keys = hex(eventKeys(events, ctx, sourceOf));
    expect(new Set(keys).size).toBe(events.length);
    expect(hex(eventKeys(events, { ...ctx }, sourceOf))).toEqual(keys);
    // anything of the context reaches every row, whether rendering reads it or not: nothing is listed
    const media = new Map(ctx.media);
    const [id, record] = [...media][0];
    media.set(id, { ...record, filename: 'renamed.jpg' });
    const pages = new Map(ctx.pages);
    const [uid, node] = [...pages][0];
    pages.set(uid, { ...node, title: 'Renamed' });
    for (const other of [
      { ...ctx, site: { ...ctx.site, timezone: 'UTC' } },
      { ...ctx, site: { ...ctx.site, page_size: 3 } },
      { ...ctx, baseUrl: 'https://example.org/x' },
      { ...ctx, media },
      { ...ctx, pages },
    ]) {
      expect(hex(eventKeys(events, other, sourceOf)).filter((k, i) => k === keys[i])).toEqual([]);
    }
    // the same context built in another order is the same context
    const reordered = { ...ctx, pages: new Map([...ctx.pages].reverse()), media: new Map([...ctx.media].reverse()) };
    expect(hex(eventKeys(events, reordered, sourceOf))).toEqual(keys);

    // one event's source: its row alone
    const sources = new Map<TextlessEvent, Buffer>(events.map((e) => [e, sourceOf(e)]));
    const edited = events[7];
    sources.set(edited, createHash('sha256').update('edited').digest());
    expect(hex(eventKeys(events, ctx, (e) => sources.get(e)!)).map((k, i) => k !== keys[i])).toEqual(events.map((_, i) => i === 7));
  });

  it('are made of the source, not the record: its file\'s parse key and the event\'s id in it', () => {
    const file = createHash('sha256').update('one file').digest();
    const [a, b] = events;
    const keys = hex(eventKeys([a, b], ctx, () => file));
    // two events of one file
    expect(keys[0]).not.toBe(keys[1]);
    // the same event read from another file (another path or text)
    expect(hex(eventKeys([a], ctx, () => createHash('sha256').update('another file').digest()))[0]).not.toBe(keys[0]);
    // the record is not read beyond what the context gives it (the same source is the same record)
    const retitled: Event = { ...a, title: 'not hashed' };
    expect(hex(eventKeys([retitled], ctx, () => file))[0]).toBe(keys[0]);
    expect(() => eventKeys([a], ctx, () => file.subarray(1))).toThrow(/32 bytes/);
  });
});

describe('cachedRows', () => {
  it('gives the bytes a fresh render gives, from the cache on the second build', () => {
    const path = join(root, 'rows-a.bin');
    const keys = eventKeys(events, ctx, sourceOf);
    const fresh = renderRows(events, ctx);
    const first = stats();
    const made = cachedRows(path, events, keys, ctx, first);
    expect(first).toEqual({ reused: 0, rendered: events.length, corrupt: 0 });
    expect(made.rows.lineBytes.equals(fresh.lineBytes)).toBe(true);
    expect([...made.rows.starts]).toEqual([...fresh.starts]);

    const second = stats();
    const again = cachedRows(path, events, keys, ctx, second);
    expect(second).toEqual({ reused: events.length, rendered: 0, corrupt: 0 });
    expect(again.rows.lineBytes.equals(fresh.lineBytes)).toBe(true);
    expect([...again.rows.starts]).toEqual([...fresh.starts]);

    // one event edited: one row rendered, appended; the file still gives every live row
    const edited = events.map((e, i) => (i === 4 ? { ...e, title: 'Neu' } : e));
    const editedKeys = eventKeys(edited, ctx, sourceOf);
    const third = stats();
    const rows = cachedRows(path, edited, editedKeys, ctx, third);
    expect(third).toEqual({ reused: events.length - 1, rendered: 1, corrupt: 0 });
    expect(rows.rows.lineBytes.equals(renderRows(edited, ctx).lineBytes)).toBe(true);
    expect(hex(split(rows.hashes))).toEqual(hex(edited.map(hashOf)));
    expect(readRows(path).count).toBe(events.length + 1);
  });

  it('keeps the rows file the threads made as the rows file, with the rows it lacked added', () => {
    const path = join(root, 'rows-made.bin');
    const keys = eventKeys(events, ctx, sourceOf);
    const fresh = renderRows(events, ctx);
    // the threads made every other row, and wrote them into their file (parse-batch.ts)
    const file = RowsScratch.create(path)!;
    const threads = new RowsFile(file.fd, file.end);
    const premade = new Map<Event, PremadeRow>();
    events.forEach((e, i) => {
      if (i % 2 === 1) return;
      const row = serializeEvent(renderEvent(e, ctx));
      const hash = hashOf(e);
      const batch = { json: Buffer.from(row.json), starts: Uint32Array.from(row.starts), keys: keys[i], hashes: hash, made: Uint8Array.of(1), keyed: true };
      threads.take(batch);
      expect(batch.json).not.toBeInstanceOf(Uint8Array);
      premade.set(e, { json: { fd: file.fd, position: (batch.json as unknown as { position: number }).position + ROW_ENTRY_HEAD }, starts: batch.starts, key: keys[i], hash });
    });
    const written = file.inProgress()!.end;
    const first = stats();
    const rows = cachedRows(path, events, keys, ctx, first, { premade, whole: wholeEvent }, file.inProgress());
    file.close();
    expect(first).toEqual({ reused: 0, rendered: events.length, corrupt: 0 });
    expect(rows.rows.lineBytes.equals(fresh.lineBytes)).toBe(true);
    expect(hex(split(rows.hashes))).toEqual(hex(events.map(hashOf)));
    // the threads' file, renamed: its rows as they were, then the ones made here
    const kept = readFileSync(path);
    expect(kept.length).toBeGreaterThan(written);
    expect(readdirSync(root).filter((name) => name.startsWith('rows-made.bin'))).toEqual(['rows-made.bin']);
    expect(readRows(path)).toMatchObject({ count: events.length, whole: true });
    const second = stats();
    expect(cachedRows(path, events, keys, ctx, second).rows.lineBytes.equals(fresh.lineBytes)).toBe(true);
    expect(second).toEqual({ reused: events.length, rendered: 0, corrupt: 0 });
    // not kept when the rows file is only appended to: the threads' file is then let go of
    const again = RowsScratch.create(path)!;
    cachedRows(path, events, keys, ctx, stats(), { premade: new Map(), whole: wholeEvent }, again.inProgress());
    again.close();
    expect(readdirSync(root).filter((name) => name.startsWith('rows-made.bin'))).toEqual(['rows-made.bin']);
    expect(readFileSync(path).equals(kept)).toBe(true);
  });

  it('keeps rows of several MB beside small ones, rewritten and appended', () => {
    const path = join(root, 'rows-large.bin');
    const large = events.map((e, i) => (i === 2 ? { ...e, title: 'groß '.repeat(1_000_000) } : e));
    const keys = eventKeys(large, ctx, sourceOf);
    cachedRows(path, large, keys, ctx, stats());
    const read = stats();
    expect(cachedRows(path, large, keys, ctx, read).rows.lineBytes.equals(renderRows(large, ctx).lineBytes)).toBe(true);
    expect(read).toEqual({ reused: events.length, rendered: 0, corrupt: 0 });
    // appended: a second large row after the rows already there
    const more = large.map((e, i) => (i === 5 ? { ...e, title: 'mehr '.repeat(1_000_000) } : e));
    cachedRows(path, more, eventKeys(more, ctx, sourceOf), ctx, stats());
    const after = stats();
    expect(cachedRows(path, more, eventKeys(more, ctx, sourceOf), ctx, after).rows.lineBytes.equals(renderRows(more, ctx).lineBytes)).toBe(true);
    expect(after).toEqual({ reused: events.length, rendered: 0, corrupt: 0 });
    expect(readRows(path)).toMatchObject({ count: events.length + 1, whole: true });
  });

  it('renders anew what is damaged, foreign or cut off, never using it', () => {
    const path = join(root, 'rows-b.bin');
    const keys = eventKeys(events, ctx, sourceOf);
    const fresh = renderRows(events, ctx).lineBytes;
    cachedRows(path, events, keys, ctx, stats());
    const good = readFileSync(path);

    // a flipped byte inside one row's JSON: that row is corrupt and rendered, the rest reused
    const flipped = Buffer.from(good);
    const at = flipped.indexOf('"title":', good.length >> 1);
    flipped[at + 10] ^= 0x01;
    writeFileSync(path, flipped);
    const damaged = stats();
    expect(cachedRows(path, events, keys, ctx, damaged).rows.lineBytes.equals(fresh)).toBe(true);
    expect(damaged).toEqual({ reused: events.length - 1, rendered: 1, corrupt: 1 });

    // a flipped byte in the first entry's hash (after its key, checksum and length): never taken,
    // so no page is keyed by a hash its row's bytes do not have
    const badHash = Buffer.from(good);
    badHash[rowsFileHeader().length + 32 + 4 + 4] ^= 0x01;
    writeFileSync(path, badHash);
    const hashDamaged = stats();
    const retaken = cachedRows(path, events, keys, ctx, hashDamaged);
    expect(hashDamaged).toEqual({ reused: events.length - 1, rendered: 1, corrupt: 1 });
    expect(hex(split(retaken.hashes))).toEqual(hex(events.map(hashOf)));

    // cut short: the rows before the cut are used, the file rewritten whole
    writeFileSync(path, good.subarray(0, good.length >> 1));
    const cut = stats();
    expect(cachedRows(path, events, keys, ctx, cut).rows.lineBytes.equals(fresh)).toBe(true);
    expect(cut.reused).toBeGreaterThan(0);
    expect(cut.rendered).toBeGreaterThan(0);
    expect(readRows(path).whole).toBe(true);

    // another aula's file: nothing of it is read
    writeFileSync(path, Buffer.from(good.toString('latin1').replace(/"aula":"[^"]*"/, '"aula":"9.9.9"'), 'latin1'));
    const foreign = stats();
    expect(cachedRows(path, events, keys, ctx, foreign).rows.lineBytes.equals(fresh)).toBe(true);
    expect(foreign).toEqual({ reused: 0, rendered: events.length, corrupt: 0 });

    // no file at all: nothing to read, every row rendered
    expect(readRows(join(root, 'absent.bin')).count).toBe(0);
  });
});
