// The columns the event filters run over, as loaded from data/columns/ (column-files.ts). One row
// per event, rows in list order (start descending, end descending, id ascending), so a `start`
// range is a contiguous slice.
import type { Instant } from '../../model/types.ts';
import type { BoolColumnData } from './bool-column-file.ts';
import type { OrderedColumnData } from './ordered-column-file.ts';
import type { RelationColumnData } from './relation-column-file.ts';
import type { TextColumnData } from './text-column-file.ts';

export const TEXT_FIELDS = ['title', 'organizer', 'location', 'teaser', 'contact', 'email'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const TIME_FIELDS = ['start', 'end', 'registration_end', 'last_modified'] as const;
export type TimeField = (typeof TIME_FIELDS)[number];

export const BOOL_FIELDS = ['allday', 'register', 'attending_fees'] as const;
export type BoolField = (typeof BOOL_FIELDS)[number];

/** The numeric columns held with their sorted order: the time fields, dfp_points and the id. */
export const ORDERED_FIELDS = [...TIME_FIELDS, 'dfp_points', 'id'] as const;
export type OrderedField = (typeof ORDERED_FIELDS)[number];

export const RELATION_FIELDS = ['categories', 'groups'] as const;
export type RelationField = (typeof RELATION_FIELDS)[number];

/** A string column read by row. */
export interface RowStrings {
  /** the row's string, null where null */
  at(row: number): string | null;
}

/** A column of id lists read by row. */
export interface RowIds {
  /** the row's ids, as the event lists them */
  at(row: number): number[];
}

/** The values of each row, as the answers read them (the calendar). */
export interface EventColumns {
  /** event ids */
  id: Float64Array;
  /** epoch ms; NaN where the field is null (only registration_end can be) */
  time: Record<TimeField, Float64Array>;
  /** the rendered ISO 8601 strings of the time fields (null where null), as they appear in the JSON */
  iso: Record<TimeField, RowStrings>;
  /** NaN where null */
  dfp_points: Float64Array;
  /** 0 or 1 */
  bool: Record<BoolField, Uint8Array>;
  /** null where null (teaser and title are never null) */
  text: Record<TextField, RowStrings>;
  /** category ids of each event */
  categories: RowIds;
  /** group ids of each event (groups given as ints, or objects with an integer `id`) */
  groups: RowIds;
}

/** The column files as loaded: each column with what its lookups search. */
export interface StoredColumns {
  text: Record<TextField, TextColumnData>;
  iso: Record<TimeField, TextColumnData>;
  ordered: Record<OrderedField, OrderedColumnData>;
  bool: Record<BoolField, BoolColumnData>;
  relation: Record<RelationField, RelationColumnData>;
}

export interface EventTable {
  readonly length: number;
  readonly columns: EventColumns;
  /** event id → row */
  readonly rowById: { get(id: number): number | undefined };
  readonly stored: StoredColumns;
}

/**
 * Every column's values in row order, as the build has them (plain arrays): what the column
 * files are written from (store/write/column-files.ts).
 */
export interface ColumnValues {
  id: ArrayLike<number>;
  /** epoch ms; NaN where null */
  time: Record<TimeField, ArrayLike<number>>;
  iso: Record<TimeField, readonly (string | null)[]>;
  dfp_points: ArrayLike<number>;
  bool: Record<BoolField, ArrayLike<number>>;
  text: Record<TextField, readonly (string | null)[]>;
  categories: readonly (readonly number[])[];
  groups: readonly (readonly number[])[];
}

export type { Instant };
