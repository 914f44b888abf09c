import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { EventRows, fieldIndex, serializeEvent, serializeEventBytes } from './event-rows.ts';

type Rendered = Record<(typeof EVENT_FIELDS)[number], unknown>;

function sample(id: number): Rendered {
  const obj = Object.fromEntries(EVENT_FIELDS.map((f) => [f, null])) as Rendered;
  return { ...obj, id, title: `Vortrag "Ö" „${id}“ 🎉`, categories: [1, 2], body: '<p>a,b}</p>', language: 'de' };
}

const serialized = [serializeEvent(sample(1)), serializeEvent(sample(2))];
const rows = EventRows.from(serialized);

describe('serializeEvent', () => {
  it('writes keys in table order and parses back to the object', () => {
    expect(Object.keys(JSON.parse(rows.json(0)))).toEqual([...EVENT_FIELDS]);
    expect(JSON.parse(rows.json(1))).toEqual(sample(2));
  });

  it('records byte offsets (not UTF-16 ones) and the line length', () => {
    const { json, starts } = serialized[0];
    const bytes = Buffer.from(json);
    expect(starts[EVENT_FIELDS.length]).toBe(bytes.length);
    EVENT_FIELDS.forEach((f, i) => expect(bytes.subarray(starts[i], starts[i] + f.length + 3).toString()).toBe(`"${f}":`));
  });

  it('escapes U+2028/U+2029 as DRF does and keeps the offsets exact', () => {
    const odd = { ...sample(3), title: 'a\u2028b', body: '\u2029' };
    const one = EventRows.from([serializeEvent(odd)]);
    expect(one.json(0)).toContain('"title":"a\\u2028b"');
    expect(one.json(0)).toContain('"body":"\\u2029"');
    EVENT_FIELDS.forEach((f, i) => expect(JSON.parse(one.value(0, i))).toEqual(odd[f]));
  });

  it('writes an object whose keys are in another order, or more, field by field in table order', () => {
    const one = sample(4);
    const reversed = Object.fromEntries(Object.entries(one).reverse()) as Rendered;
    const more = { ...one, extra: 1 } as Rendered;
    for (const odd of [reversed, more]) {
      const row = serializeEventBytes(odd);
      expect(row.json).toBe(serializeEvent(one).json);
      expect(row.starts).toEqual(serializeEvent(one).starts);
      expect(row.bytes.toString()).toBe(row.json);
    }
  });

  it('gives the line as UTF-8 too, in a buffer the next call reuses', () => {
    const first = serializeEventBytes(sample(5));
    expect(first.bytes.toString()).toBe(first.json);
    const kept = Buffer.from(first.bytes);
    const second = serializeEventBytes(sample(6));
    expect(second.bytes.buffer).toBe(first.bytes.buffer);
    expect(kept.toString()).toBe(first.json);
  });
});

describe('EventRows', () => {
  it('slices every field value exactly, non-ASCII text before it included', () => {
    for (let row = 0; row < rows.length; row++) {
      EVENT_FIELDS.forEach((f, i) => expect(JSON.parse(rows.value(row, i))).toEqual(sample(row + 1)[f]));
    }
  });

  it('gives each row as a view of the file bytes', () => {
    expect(rows.bytes(1).toString()).toBe(serialized[1].json);
    expect(rows.lineBytes.toString()).toBe(`${serialized[0].json}\n${serialized[1].json}`);
  });

  it('projects chosen fields and replaces values', () => {
    const [title, categories, id] = ['title', 'categories', 'id'].map((f) => fieldIndex(f)!);
    const out = rows.project(1, [id, categories, title], new Map([[categories, (v: string) => `{"was":${v}}`]]));
    expect(out.toString()).toBe('{"id":2,"categories":{"was":[1,2]},"title":"Vortrag \\"Ö\\" „2“ 🎉"}');
    expect(rows.project(0, []).toString()).toBe('{}');
  });

  it('splices one value into the whole event, first and last fields included', () => {
    const categories = fieldIndex('categories')!;
    expect(JSON.parse(rows.replaceValue(0, categories, (v) => `{"was":${v}}`).toString())).toEqual({ ...sample(1), categories: { was: [1, 2] } });
    expect(JSON.parse(rows.replaceValue(0, 0, () => '"x"').toString()).id).toBe('x');
    expect(JSON.parse(rows.replaceValue(0, EVENT_FIELDS.length - 1, () => '7').toString()).language).toBe(7);
  });

  it('refuses bytes and offsets that do not fit together', () => {
    const { lineBytes, starts } = rows;
    expect(() => new EventRows(lineBytes.subarray(0, lineBytes.length - 1), starts)).toThrow();
    expect(() => new EventRows(Buffer.concat([lineBytes, Buffer.from('\n{}')]), starts)).toThrow();
    expect(() => new EventRows(lineBytes, starts.subarray(0, 5))).toThrow();
    expect(new EventRows(Buffer.alloc(0), new Uint32Array(0)).length).toBe(0);
  });
});
