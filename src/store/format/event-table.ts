// The columns the event filters run over. One row per event, rows in list order
// (start descending, end descending, id ascending), so a `start` range is a contiguous slice.
import type { Instant } from '../../model/types.ts';

export const TEXT_FIELDS = ['title', 'organizer', 'location', 'teaser', 'contact', 'email'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const TIME_FIELDS = ['start', 'end', 'registration_end', 'last_modified'] as const;
export type TimeField = (typeof TIME_FIELDS)[number];

export const BOOL_FIELDS = ['allday', 'register', 'attending_fees'] as const;
export type BoolField = (typeof BOOL_FIELDS)[number];

export interface EventColumns {
  /** event ids */
  id: Float64Array;
  /** epoch ms; NaN where the field is null (only registration_end can be) */
  time: Record<TimeField, Float64Array>;
  /** the rendered ISO 8601 strings of the time fields (null where null), as they appear in the JSON */
  iso: Record<TimeField, (string | null)[]>;
  /** NaN where null */
  dfp_points: Float64Array;
  /** 0 or 1 */
  bool: Record<BoolField, Uint8Array>;
  /** null where null (teaser and title are never null) */
  text: Record<TextField, (string | null)[]>;
  /** category ids of each event */
  categories: number[][];
  /** group ids of each event (groups given as ints, or objects with an integer `id`) */
  groups: number[][];
}

export interface EventTable {
  readonly length: number;
  readonly columns: EventColumns;
  /** event id → row */
  readonly rowById: ReadonlyMap<number, number>;
}

export type { Instant };
