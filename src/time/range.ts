// The instants the API can write. DRF renders a timestamp with Python's datetime, whose years run
// from 1 to 9999, first converting it to the site's zone; the stored value is UTC. So both the
// instant (in UTC) and its wall time in the site's zone must lie in those years: a value outside
// would make Python fail, and makes aula's ISO text and iCalendar values (four-digit years) wrong.
import type { Instant } from '../model/types.ts';
import { offsetAt, startOfYear } from './offsets.ts';

export const FIRST_INSTANT = startOfYear(1);
/** the first instant after the last writable one */
export const END_INSTANT = startOfYear(10_000);
/** more than any zone's offset (the largest, local mean times, are under 16 hours) */
const OFFSET_BOUND = 86_400_000;

export function isWritable(t: Instant, zone: string): boolean {
  if (!(t >= FIRST_INSTANT && t < END_INSTANT)) return false;
  // Only an instant within a day of either end can have a wall time in another year.
  if (t >= FIRST_INSTANT + OFFSET_BOUND && t < END_INSTANT - OFFSET_BOUND) return true;
  const wall = t + offsetAt(t, zone);
  return wall >= FIRST_INSTANT && wall < END_INSTANT;
}
