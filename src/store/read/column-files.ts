// The event list's columns, read from their files (src/store/format/column-files.ts): every
// lookup's index as it was written, views of the files' bytes, nothing built here.
import { columnFile } from '../format/column-files.ts';
import { BOOL_FIELDS, ORDERED_FIELDS, RELATION_FIELDS, TEXT_FIELDS, TIME_FIELDS, type EventTable, type StoredColumns } from '../format/event-table.ts';
import type { OrderedColumnData } from '../format/ordered-column-file.ts';
import { FormatError } from '../format/sections.ts';
import { readBoolColumn } from './bool-column.ts';
import { corrupt, type DistSource } from './dist-source.ts';
import { readOrderedColumn } from './ordered-column.ts';
import { readRelationColumn } from './relation-column.ts';
import { readTextColumn } from './text-column.ts';

const byField = <F extends string, V>(fields: readonly F[], value: (f: F) => V) => Object.fromEntries(fields.map((f) => [f, value(f)])) as Record<F, V>;

/** Reads every column file of a list of `rows` events; throws DistError naming a file that is not what it should be. */
export function readColumns(source: DistSource, rows: number): EventTable {
  const read = <T>(rel: string, reader: (bytes: Uint8Array, rows: number) => T): T => {
    const bytes = source.bytes(rel);
    try {
      return reader(bytes, rows);
    } catch (e) {
      if (e instanceof FormatError) throw corrupt(source, rel, `${e.message}`);
      throw e;
    }
  };
  const stored: StoredColumns = {
    text: byField(TEXT_FIELDS, (f) => read(columnFile.text(f), readTextColumn)),
    iso: byField(TIME_FIELDS, (f) => read(columnFile.iso(f), readTextColumn)),
    ordered: byField(ORDERED_FIELDS, (f) => read(columnFile.ordered(f), readOrderedColumn)),
    bool: byField(BOOL_FIELDS, (f) => read(columnFile.bool(f), readBoolColumn)),
    relation: byField(RELATION_FIELDS, (f) => read(columnFile.relation(f), readRelationColumn)),
  };
  const ids = stored.ordered.id;
  if (ids.order.length !== rows) throw corrupt(source, columnFile.ordered('id'), 'has a row without an id');
  return tableOf(stored, rows);
}

/** The table over loaded (or, in tests and the build, just made) columns. */
export function tableOf(stored: StoredColumns, rows: number): EventTable {
  return {
    length: rows,
    stored,
    columns: {
      id: stored.ordered.id.values,
      time: byField(TIME_FIELDS, (f) => stored.ordered[f].values),
      iso: stored.iso,
      dfp_points: stored.ordered.dfp_points.values,
      bool: byField(BOOL_FIELDS, (f) => stored.bool[f].values),
      text: stored.text,
      categories: stored.relation.categories,
      groups: stored.relation.groups,
    },
    rowById: rowLookup(stored.ordered.id),
  };
}

/** id → row, by a binary search of the rows in id order. */
function rowLookup(ids: OrderedColumnData): EventTable['rowById'] {
  const { values, order } = ids;
  return {
    get(id: number): number | undefined {
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (values[order[mid]] < id) lo = mid + 1;
        else hi = mid;
      }
      return lo < order.length && values[order[lo]] === id ? order[lo] : undefined;
    },
  };
}
