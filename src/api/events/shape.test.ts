// expand=categories splices expansions serialized once per dataset: the bytes must be those of
// the straightforward splice (decode the stored value, look each id up, join), for every row,
// on first and later requests, alone or with sparse fields, and per dataset.
import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';
import { EventRows, serializeEvent } from '../../store/format/event-rows.ts';
import { QueryParams } from '../../query/query-dict.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { parseShape, rowSplicer, shapeRenderer } from './shape.ts';

function dataset(seed: number, events: number) {
  const rand = mulberry32(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const categoryJson = new Map<number, string>();
  for (let id = 1; id <= 12; id++) categoryJson.set(id, JSON.stringify({ id, title: `Kategorie ${id} ${'äöü€'.slice(0, int(4))}`, seed }));
  const objects = Array.from({ length: events }, (_, i) => {
    const ids = Array.from({ length: int(4) }, () => 1 + int(12));
    return Object.fromEntries(EVENT_FIELDS.map((f) => [f, f === 'categories' ? ids : f === 'id' ? i + 1 : `${f} ${i} ${'ß\u2028"'.slice(0, int(4))}`])) as Record<EventField, unknown>;
  });
  return { categoryJson, objects, rows: EventRows.from(objects.map(serializeEvent)) };
}

/** The event with its categories replaced by the category objects, spliced as text. */
function reference(obj: Record<EventField, unknown>, categoryJson: ReadonlyMap<number, string>, fields: readonly EventField[] | null): string {
  const ids = obj.categories as number[];
  const parts = (fields ?? EVENT_FIELDS).map((f) => {
    const value = f === 'categories' ? `[${ids.map((id) => categoryJson.get(id)).join(',')}]` : JSON.stringify(obj[f]).replace(/\u2028/g, '\\u2028');
    return `"${f}":${value}`;
  });
  return `{${parts.join(',')}}`;
}

function render(rows: EventRows, categoryJson: ReadonlyMap<number, string>, query: string, row: number): string {
  const out: Uint8Array[] = [];
  shapeRenderer(parseShape(QueryParams.parse(query)), rows, categoryJson)(row, rows.bytes(row), out);
  return Buffer.concat(out).toString('utf8');
}

describe('expand=categories', () => {
  it('gives the bytes of the straightforward splice, on first and repeated requests', () => {
    const { categoryJson, objects, rows } = dataset(1, 400);
    for (let round = 0; round < 2; round++) {
      for (let row = 0; row < rows.length; row++) {
        expect(render(rows, categoryJson, 'expand=categories', row)).toBe(reference(objects[row], categoryJson, null));
      }
    }
    // with sparse fields (the projection path) and expand=*
    for (let row = 0; row < rows.length; row += 7) {
      expect(render(rows, categoryJson, 'expand=*&fields=id,categories,title', row)).toBe(reference(objects[row], categoryJson, ['id', 'categories', 'title']));
      expect(render(rows, categoryJson, 'expand=categories&omit=categories', row)).toBe(reference(objects[row], categoryJson, EVENT_FIELDS.filter((f) => f !== 'categories')));
    }
  });

  it('never serves one dataset the expansions of another', () => {
    const a = dataset(2, 50);
    const b = dataset(3, 50);
    for (let row = 0; row < 50; row++) {
      expect(render(a.rows, a.categoryJson, 'expand=categories', row)).toBe(reference(a.objects[row], a.categoryJson, null));
      expect(render(b.rows, b.categoryJson, 'expand=categories', row)).toBe(reference(b.objects[row], b.categoryJson, null));
      // the same rows with other category objects (a reloaded categories file)
      expect(render(a.rows, b.categoryJson, 'expand=categories', row)).toBe(reference(a.objects[row], b.categoryJson, null));
    }
  });

  it('sizes a row without its bytes once its expansion is made and no shorter than its value, and moves it forward in place', () => {
    const { categoryJson, objects, rows } = dataset(4, 120);
    // categories 1–4 unknown: their ids expand to nothing, shorter than the stored value
    const partial = new Map([...categoryJson].filter(([id]) => id > 4));
    let shorterSeen = 0;
    for (const json of [categoryJson, partial]) {
      const splice = rowSplicer(parseShape(QueryParams.parse('expand=categories')), rows, json)!;
      for (let row = 0; row < rows.length; row++) {
        expect(splice.knownSize(row, splice.span(row))).toBe(-1);
        const whole = rows.bytes(row);
        const size = splice.size(row, whole);
        const ids = objects[row].categories as number[];
        const shorter = `[${ids.map((id) => json.get(id)).join(',')}]`.length < JSON.stringify(ids).length;
        expect(splice.knownSize(row, splice.span(row))).toBe(shorter ? -1 : size);
        if (shorter) {
          shorterSeen++;
          continue;
        }
        // the row's bytes ahead of its place by at least its growth, as the page leaves them
        for (const ahead of [size - whole.length, size - whole.length + 3]) {
          const out = Buffer.alloc(ahead + whole.length + 5, 0x20);
          whole.copy(out, ahead + 2);
          const end = splice.moveWithin(row, splice.span(row), out, ahead + 2, 2);
          expect(end).toBe(2 + size);
          const written = out.subarray(2, end).toString('utf8');
          const chunks: Uint8Array[] = [];
          shapeRenderer(parseShape(QueryParams.parse('expand=categories')), rows, json)(row, whole, chunks);
          expect(written).toBe(Buffer.concat(chunks).toString('utf8'));
          if (json === categoryJson) expect(written).toBe(reference(objects[row], json, null));
        }
      }
    }
    expect(shorterSeen).toBeGreaterThan(0);
  });
});
