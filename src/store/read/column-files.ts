// The event list's columns, read from their files (src/store/format/column-files.ts): every
// lookup's index as it was written, views of the files' bytes, nothing built here. Each column is
// read when first used; a source that is not per need (dist-source.ts) has them all read at once.
import { columnFile } from '../format/column-files.ts';
import { BOOL_FIELDS, ORDERED_FIELDS, RELATION_FIELDS, TEXT_FIELDS, TIME_FIELDS, type EventTable, type StoredColumns } from '../format/event-table.ts';
import type { OrderedColumnData } from '../format/ordered-column-file.ts';
import type { TextColumnData } from '../format/text-column-file.ts';
import { FormatError, type Fault } from '../format/sections.ts';
import { readBoolColumn } from './bool-column.ts';
import { lazyRecord, makeAll, once } from './per-need.ts';
import { corrupt, sectionedBytes, type DistSource } from './dist-source.ts';
import { readOrderedColumn } from './ordered-column.ts';
import { readRelationColumn } from './relation-column.ts';
import { readTextColumn } from './text-column.ts';

/**
 * The column files of a list of `rows` events, each read when first used (every one now unless
 * the source loads per need, or `lazy`); a read throws DistError naming a file that is not what
 * it should be.
 */
export function readColumns(source: DistSource, rows: number, lazy = source.perNeed): EventTable {
  const read = <T>(rel: string, reader: (bytes: Uint8Array, rows: number, fault?: Fault, later?: Fault) => T): T => {
    const bytes = sectionedBytes(source, rel);
    const found = (problem: string) => corrupt(source, rel, problem);
    try {
      // read per need, a text is decoded when first read, and read whole, its strings' texts are
      // decoded once the server answers (server/decode-texts.ts): a problem found then names the file as one found now
      return reader(bytes, rows, source.perNeed ? found : undefined, source.perNeed ? undefined : found);
    } catch (e) {
      if (e instanceof FormatError) throw corrupt(source, rel, `${e.message}`);
      throw e;
    }
  };
  const ordered = (f: (typeof ORDERED_FIELDS)[number]) => {
    const column = read(columnFile.ordered(f), readOrderedColumn);
    // (the values in order are as many as the rows sorted: read without the order itself)
    if (f === 'id' && (column.search?.nonNull ?? column.ordered.length) !== rows) throw corrupt(source, columnFile.ordered('id'), 'has a row without an id');
    return column;
  };
  const stored: StoredColumns = {
    text: lazyRecord(TEXT_FIELDS, (f) => read(columnFile.text(f), readTextColumn)),
    iso: lazyRecord(TIME_FIELDS, (f) => read(columnFile.iso(f), readTextColumn)),
    ordered: lazyRecord(ORDERED_FIELDS, ordered),
    bool: lazyRecord(BOOL_FIELDS, (f) => read(columnFile.bool(f), readBoolColumn)),
    relation: lazyRecord(RELATION_FIELDS, (f) => read(columnFile.relation(f), readRelationColumn)),
  };
  if (!lazy) makeAll(stored);
  return tableOf(stored, rows);
}

/**
 * The string lists of `table`'s text columns, read whole by readColumns with their texts left to
 * decode: each list's decodeAll (nothing for one decoded already), to call one at a time once the
 * server answers.
 */
export function textDecodes(table: EventTable): (() => void)[] {
  const lists: (() => void)[] = [];
  for (const columns of [table.stored.text, table.stored.iso] as Record<string, TextColumnData>[]) {
    for (const f of Object.keys(columns)) {
      const { values, folded } = columns[f];
      for (const list of [values, folded]) if (list?.decodeAll) lists.push(() => list.decodeAll!());
    }
  }
  return lists;
}

/** The table over loaded (or, in tests and the build, just made) columns; a column is read from `stored` when first used. */
export function tableOf(stored: StoredColumns, rows: number): EventTable {
  const columns = {
    get id() {
      return stored.ordered.id.values;
    },
    time: lazyRecord(TIME_FIELDS, (f) => stored.ordered[f].values),
    iso: stored.iso,
    get dfp_points() {
      return stored.ordered.dfp_points.values;
    },
    bool: lazyRecord(BOOL_FIELDS, (f) => stored.bool[f].values),
    text: stored.text,
    get categories() {
      return stored.relation.categories;
    },
    get groups() {
      return stored.relation.groups;
    },
  };
  return { length: rows, stored, columns, rowById: rowLookup(once(() => stored.ordered.id)) };
}

/** id → row, by a binary search of the rows in id order. */
function rowLookup(idColumn: () => OrderedColumnData): EventTable['rowById'] {
  return {
    get(id: number): number | undefined {
      const column = idColumn();
      if (column.search !== undefined) return column.search.rowOf(id);
      const { values, order } = column;
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
