// What `ordering` needs of each orderable field: the rows sorted by the field in either direction
// (ties by row, which is the default order), each row's place in those orders, and which rows tie.
//
// Nulls sort as PostgreSQL sorts them: after every value ascending, before every value descending
// (a null is larger than any value). Titles compare by UTF-16 code units, which is Unicode code
// point order but for characters beyond U+FFFF (PostgreSQL's C collation, as the original's
// database compared them): upper case before lower case, `Zoo` before `Ärzte`.
//
// OrderSource is the one place that knows where these come from: today they are computed from the
// table's columns, once per table, on first use (like the filter indexes, an index built for the
// table and not charged to a request); the dist's own ordered columns can supply them instead.
import type { EventTable } from '../../../store/format/event-table.ts';
import type { OrderField } from './ordering-param.ts';

export interface FieldOrder {
  /** the rows sorted by the field ascending, nulls last, ties by row */
  readonly ascending: Uint32Array;
  /** the rows sorted by the field descending, nulls first, ties by row */
  readonly descending: Uint32Array;
  /** each row's place in `ascending` and in `descending` */
  readonly ascendingPlace: Uint32Array;
  readonly descendingPlace: Uint32Array;
  /** each row's rank: equal for rows whose values are equal (both null included) */
  readonly rank: Uint32Array;
}

export interface OrderSource {
  readonly rows: number;
  field(field: OrderField): FieldOrder;
}

/** The orders of `table`'s fields, each made when first asked for and kept with the table. */
export function orderSourceOf(table: EventTable): OrderSource {
  let source = sources.get(table);
  if (!source) {
    const made = new Map<OrderField, FieldOrder>();
    source = {
      rows: table.length,
      field: (f) => {
        let order = made.get(f);
        if (!order) made.set(f, (order = orderOfColumn(table, f)));
        return order;
      },
    };
    sources.set(table, source);
  }
  return source;
}

const sources = new WeakMap<EventTable, OrderSource>();

function orderOfColumn(table: EventTable, field: OrderField): FieldOrder {
  const { columns } = table;
  if (field === 'title') return fromSorted(sortedBy(table.length, columns.text.title));
  const values = field === 'id' ? columns.id : field === 'dfp_points' ? columns.dfp_points : columns.time[field];
  return fromSorted(sortedByNumber(values));
}

/** The rows in ascending order of `values` (NaN last), ties by row; and where ties start. */
interface Sorted {
  rows: Uint32Array;
  /** 1 where rows[i] ties with rows[i - 1] */
  tie: Uint8Array;
}

function sortedByNumber(values: Float64Array): Sorted {
  const rows = new Uint32Array(values.length);
  for (let i = 0; i < rows.length; i++) rows[i] = i;
  const key = (r: number) => (values[r] === values[r] ? values[r] : Infinity);
  const nulls = (r: number) => (values[r] === values[r] ? 0 : 1);
  rows.sort((a, b) => nulls(a) - nulls(b) || key(a) - key(b) || a - b);
  const tie = new Uint8Array(rows.length);
  for (let i = 1; i < rows.length; i++) {
    const a = values[rows[i - 1]];
    const b = values[rows[i]];
    tie[i] = a === b || (a !== a && b !== b) ? 1 : 0;
  }
  return { rows, tie };
}

function sortedBy(n: number, texts: readonly (string | null)[]): Sorted {
  const rows = new Uint32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  rows.sort((a, b) => {
    const x = texts[a];
    const y = texts[b];
    if (x === y) return a - b;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  const tie = new Uint8Array(n);
  for (let i = 1; i < n; i++) tie[i] = texts[rows[i - 1]] === texts[rows[i]] ? 1 : 0;
  return { rows, tie };
}

/**
 * Both directions from the ascending order: descending takes the runs of ties in reverse, each
 * run kept in row order.
 */
export function fromSorted({ rows: ascending, tie }: Sorted): FieldOrder {
  const n = ascending.length;
  const rank = new Uint32Array(n);
  const ascendingPlace = new Uint32Array(n);
  let r = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && !tie[i]) r++;
    rank[ascending[i]] = r;
    ascendingPlace[ascending[i]] = i;
  }
  const descending = new Uint32Array(n);
  const descendingPlace = new Uint32Array(n);
  let at = 0;
  for (let end = n; end > 0; ) {
    let start = end - 1;
    while (start > 0 && tie[start]) start--;
    for (let i = start; i < end; i++) {
      descending[at] = ascending[i];
      descendingPlace[ascending[i]] = at++;
    }
    end = start;
  }
  return { ascending, descending, ascendingPlace, descendingPlace, rank };
}
