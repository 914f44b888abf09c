// The event state's stats, apart from event-state.ts: the stat thread loads only these.

/** size, mtime (ns), ctime (ns), inode, device */
export const STAT_FIELDS = 5;

/** stat-index.ts stillFresh over the state's arrays: stat `j` of `current` against the recorded `i`. */
export function freshStatAt(stats: BigInt64Array, i: number, current: BigInt64Array, j: number, safe: bigint, margin: bigint): boolean {
  const at = i * STAT_FIELDS;
  const now = j * STAT_FIELDS;
  const before = safe - margin;
  return stats[at] >= 0n && current[now] >= 0n && current[now + 1] < before && current[now + 2] < before && current[now] === stats[at] &&
    current[now + 1] === stats[at + 1] && current[now + 2] === stats[at + 2] && current[now + 3] === stats[at + 3] && current[now + 4] === stats[at + 4];
}

/** Puts a stat into `stats` at `i` (null: none). */
export function putStat(stats: BigInt64Array, i: number, stat: { size: bigint; mtimeNs: bigint; ctimeNs: bigint; ino: bigint; dev: bigint } | null): void {
  const at = i * STAT_FIELDS;
  if (stat === null) stats.fill(-1n, at, at + STAT_FIELDS);
  else {
    stats[at] = stat.size;
    stats[at + 1] = stat.mtimeNs;
    stats[at + 2] = stat.ctimeNs;
    stats[at + 3] = stat.ino;
    stats[at + 4] = stat.dev;
  }
}
