// Durations as people write them on a command line: `500ms`, `30s`, `2m`, `1h`. A bare number
// is refused rather than guessed (seconds? milliseconds?), so `--poll 30` cannot mean 30 ms.

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds of `text`, or null when it is not a duration of at least 1 ms and at most a day. */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(text);
  if (!m) return null;
  const ms = Math.round(Number(m[1]) * UNITS[m[2]]);
  return ms >= 1 && ms <= 86_400_000 ? ms : null;
}
