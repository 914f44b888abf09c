import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../render/event.ts';
import { ByteRows, EventRows, fieldIndex, serializeEvent, StringRows } from './event-rows.ts';

function sample(id: number): Record<(typeof EVENT_FIELDS)[number], unknown> {
  const obj = Object.fromEntries(EVENT_FIELDS.map((f) => [f, null])) as Record<(typeof EVENT_FIELDS)[number], unknown>;
  return { ...obj, id, title: `Vortrag "Ö" ${id}`, categories: [1, 2], body: '<p>a,b}</p>', language: 'de' };
}

describe('EventRows', () => {
  const serialized = [serializeEvent(sample(1)), serializeEvent(sample(2))];
  const rows = EventRows.from(serialized);

  it('serializes keys in table order and parses back to the object', () => {
    expect(Object.keys(JSON.parse(rows.json(0)))).toEqual([...EVENT_FIELDS]);
    expect(JSON.parse(rows.json(1))).toEqual(sample(2));
  });

  it('slices every field value exactly', () => {
    for (let row = 0; row < rows.length; row++) {
      EVENT_FIELDS.forEach((f, i) => {
        expect(JSON.parse(rows.value(row, i))).toEqual(sample(row + 1)[f]);
      });
    }
  });

  it('projects chosen fields and replaces values', () => {
    const title = fieldIndex('title')!;
    const categories = fieldIndex('categories')!;
    const id = fieldIndex('id')!;
    const out = rows.project(1, [id, categories, title], new Map([[categories, (v: string) => `{"was":${v}}`]]));
    expect(out).toBe('{"id":2,"categories":{"was":[1,2]},"title":"Vortrag \\"Ö\\" 2"}');
    expect(rows.project(0, [])).toBe('{}');
  });

  it('refuses offsets that do not fit the rows', () => {
    expect(() => new EventRows(new StringRows(['{}']), new Uint32Array(3))).toThrow();
  });
});

describe('ByteRows', () => {
  it('decodes each line of the UTF-8 file on demand', () => {
    const lines = ['{"a":"Ärzte „Vortrag“ 🎉"}', '{}', '{"b":"\\n"}'];
    const rows = new ByteRows(Buffer.from(lines.join('\n')));
    expect(rows.length).toBe(3);
    expect([0, 1, 2].map((r) => rows.text(r))).toEqual(lines);
    expect(new ByteRows(Buffer.alloc(0)).length).toBe(0);
  });
});

describe('replaceValue', () => {
  it('splices one value into the whole event, first and last fields included', () => {
    const rows = EventRows.from([serializeEvent(sample(9))]);
    const categories = fieldIndex('categories')!;
    const replaced = JSON.parse(rows.replaceValue(0, categories, (v) => `{"was":${v}}`));
    expect(replaced).toEqual({ ...sample(9), categories: { was: [1, 2] } });
    expect(JSON.parse(rows.replaceValue(0, 0, () => '"x"')).id).toBe('x');
    expect(JSON.parse(rows.replaceValue(0, EVENT_FIELDS.length - 1, () => '7')).language).toBe(7);
  });
});

describe('serializeEvent with U+2028/U+2029', () => {
  it('escapes them as DRF does and keeps the offsets exact', () => {
    const rows = EventRows.from([serializeEvent({ ...sample(3), title: 'a\u2028b', body: '\u2029' })]);
    expect(rows.json(0)).toContain('"title":"a\\u2028b"');
    expect(rows.json(0)).toContain('"body":"\\u2029"');
    EVENT_FIELDS.forEach((f, i) => expect(JSON.parse(rows.value(0, i))).toEqual({ ...sample(3), title: 'a\u2028b', body: '\u2029' }[f]));
  });
});
