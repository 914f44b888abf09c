// drf-flex-fields' sparse fields and expansion: `fields`, `omit` and `expand`, applied by splicing
// the pre-serialized segments of an event rather than re-serializing it.
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { fieldIndex, type EventRows } from '../../store/format/event-rows.ts';
import type { QueryParams } from '../../query/query-dict.ts';

export const SHAPE_PARAMS = ['fields', 'omit', 'expand'] as const;
export const EXPANDABLE = ['categories'] as const;
type Expandable = (typeof EXPANDABLE)[number];

const CATEGORIES = fieldIndex('categories')!;
const ALL_FIELDS = EVENT_FIELDS.map((_, i) => i);

export interface Shape {
  /** null: the whole event as serialized */
  fields: readonly number[] | null;
  expand: ReadonlySet<Expandable>;
  /** `param=name` for each name that was not understood */
  ignored: string[];
}

function names(params: QueryParams, key: string): string[] {
  return params.getAll(key).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}

export function parseShape(params: QueryParams): Shape {
  const ignored: string[] = [];
  const pick = (key: string) => {
    const found = new Set<number>();
    for (const name of names(params, key)) {
      const i = fieldIndex(name);
      if (i === undefined) ignored.push(`${key}=${name}`);
      else found.add(i);
    }
    return found;
  };
  const only = pick('fields');
  const omit = pick('omit');
  const expand = new Set<Expandable>();
  for (const name of names(params, 'expand')) {
    if (name === '*') EXPANDABLE.forEach((e) => expand.add(e));
    else if ((EXPANDABLE as readonly string[]).includes(name)) expand.add(name as Expandable);
    else ignored.push(`expand=${name}`);
  }
  const restricted = only.size > 0 || omit.size > 0;
  const fields = restricted ? ALL_FIELDS.filter((i) => (only.size === 0 || only.has(i)) && !omit.has(i)) : null;
  return { fields, expand, ignored };
}

/** Whether the shape keeps events exactly as stored (so their bytes can be sent as they are). */
export function isPlain(shape: Shape): boolean {
  return shape.fields === null && shape.expand.size === 0;
}

/**
 * A renderer of one row under the shape: appends the row's JSON to `out` as byte chunks, given
 * the row's stored bytes (`whole`); the plain case appends the stored bytes untouched.
 */
export type RowRenderer = (row: number, whole: Buffer, out: Uint8Array[]) => void;

export function shapeRenderer(shape: Shape, rows: EventRows, categoryJson: ReadonlyMap<number, string>): RowRenderer {
  if (isPlain(shape)) return (_row, whole, out) => void out.push(whole);
  // events share few distinct category lists: expand each once per request
  const expanded = new Map<string, string>();
  const expandCategories = (value: string) => {
    let json = expanded.get(value);
    if (json === undefined) {
      json = `[${(JSON.parse(value) as number[]).map((id) => categoryJson.get(id)).join(',')}]`;
      expanded.set(value, json);
    }
    return json;
  };
  if (shape.fields === null) {
    // every field kept: splice the one expanded value into the stored text
    return (row, whole, out) => rows.replaceValueInto(row, whole, CATEGORIES, expandCategories, out);
  }
  const replace = new Map<number, (value: string) => string>();
  if (shape.expand.has('categories')) replace.set(CATEGORIES, expandCategories);
  return (row, whole, out) => rows.projectInto(row, whole, shape.fields!, replace, out);
}
