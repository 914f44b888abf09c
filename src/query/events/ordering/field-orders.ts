// What `ordering` needs of each orderable field: the rows sorted by the field in either direction
// (ties by row, which is the default order), each row's place in those orders, and which rows tie.
//
// Nulls sort as PostgreSQL sorts them: after every value ascending, before every value descending
// (a null is larger than any value). Titles compare by UTF-16 code units, which is Unicode code
// point order but for characters beyond U+FFFF (PostgreSQL's C collation, as the original's
// database compared them): upper case before lower case, `Zoo` before `Ärzte`.
//
// The sorting is the build's: a numeric field's column file holds its rows sorted by (value, row),
// the title's its values sorted by their text and each value's rows (store/format/). From that one
// order, the other direction, the places and the ties are laid out once per table, when a field is
// first ordered by: a pass over the rows, no comparison (like the filters' views, kept with the
// table and not charged to a request).
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
  if (field === 'title') return titleOrder(table);
  const { values, order } = table.stored.ordered[field];
  const n = table.length;
  // the non-null rows as the build sorted them, then the null ones (NaN), by row
  let rows = order;
  if (order.length < n) {
    rows = new Uint32Array(n);
    rows.set(order);
    let at = order.length;
    for (let r = 0; r < n; r++) if (values[r] !== values[r]) rows[at++] = r;
  }
  const tie = new Uint8Array(n);
  for (let i = 1; i < n; i++) {
    const a = values[rows[i - 1]];
    const b = values[rows[i]];
    tie[i] = a === b || (a !== a && b !== b) ? 1 : 0;
  }
  return fromSorted({ rows, tie });
}

/** The rows in ascending order, ties by row; and where ties start. */
interface Sorted {
  rows: Uint32Array;
  /** 1 where rows[i] ties with rows[i - 1] */
  tie: Uint8Array;
}

/** Each value of the title column in its text order, each value's rows ascending. */
function titleOrder(table: EventTable): FieldOrder {
  const { byValue, valueRowStart, valueRows, rowValue } = table.stored.text.title;
  const n = table.length;
  const rows = new Uint32Array(n);
  const tie = new Uint8Array(n);
  let at = 0;
  for (const v of byValue) {
    for (let k = valueRowStart[v]; k < valueRowStart[v + 1]; k++) {
      tie[at] = k > valueRowStart[v] ? 1 : 0;
      rows[at++] = valueRows[k];
    }
  }
  // (a dist whose titles hold nulls is no build's, but is ordered as the other fields: nulls last)
  for (let r = 0; at < n && r < n; r++) {
    if (rowValue[r] >= 0) continue;
    tie[at] = at > 0 && rowValue[rows[at - 1]] < 0 ? 1 : 0;
    rows[at++] = r;
  }
  return fromSorted({ rows, tie });
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
