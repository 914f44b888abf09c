// data/columns/<field>.bool.bin: a boolean column of the event list (allday, register,
// attending_fees) with the rows of each value, so that `field=true` lists its rows without a scan,
// and as bit sets, so that a flag narrows another condition's bit set word by word (search).
//
//   0  header: rows
//   1  values      u8 × rows: 0 or 1
//   2  false rows  u32, ascending
//   3  true rows   u32, ascending
//   4  false bits  i32 × ⌈rows / 32⌉ (bitmap.ts)
//   5  true bits   i32 × ⌈rows / 32⌉
import type { Format } from './sections.ts';

export const BOOL_COLUMN_FORMAT: Format = { magic: 'aula-boo', version: 2, sections: 6, what: 'a boolean column' };

export interface BoolColumnData {
  readonly values: Uint8Array;
  /** the rows where the flag is false ([0]) and true ([1]), ascending */
  readonly rows: readonly [Uint32Array, Uint32Array];
  /** the same rows as bit sets over the rows */
  readonly bits: readonly [Int32Array, Int32Array];
}
