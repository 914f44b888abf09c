// expand=categories splices expansions serialized once per dataset: the bytes must be those of
// the straightforward splice (decode the stored value, look each id up, join), for every row,
// on first and later requests, alone or with sparse fields, and per dataset.
import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';
import { EventRows, serializeEvent } from '../../store/format/event-rows.ts';
import { QueryParams } from '../../query/query-dict.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { parseShape, shapeRenderer } from './shape.ts';

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
});
