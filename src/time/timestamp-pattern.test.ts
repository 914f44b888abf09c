import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimestamp } from './parse.ts';
import { daysInMonth } from './zone.ts';
import { TIMESTAMP_EXAMPLES, TIMESTAMP_PATTERN } from './timestamp-pattern.ts';

// The schemas' `pattern` is run as ajv and editors run it: an ECMA-262 regex with the u flag.
const pattern = new RegExp(TIMESTAMP_PATTERN, 'u');
// UTC has no DST gaps, so a refusal by the parser is always a grammar or range refusal.
const parses = (text: string) => parseTimestamp(text, 'UTC').ok;

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** Timestamp-like strings around the grammar's edges: ranges, separators, fractions, offsets. */
const candidates = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }).map((n) => pad(n, 4)),
    month: fc.integer({ min: 0, max: 14 }).chain((n) => fc.constantFrom(String(n), pad(n, 2))),
    day: fc.integer({ min: 0, max: 33 }).chain((n) => fc.constantFrom(String(n), pad(n, 2))),
    time: fc.option(
      fc.record({
        sep: fc.constantFrom('T', ' ', 't', '_'),
        hour: fc.integer({ min: 0, max: 25 }).chain((n) => fc.constantFrom(String(n), pad(n, 2))),
        minute: fc.integer({ min: 0, max: 61 }).chain((n) => fc.constantFrom(String(n), pad(n, 2))),
        second: fc.option(fc.integer({ min: 0, max: 61 }).map((n) => pad(n, 2))),
        fraction: fc.option(fc.stringMatching(/^[.,]\d{0,14}$/)),
        space: fc.constantFrom('', ' '),
        offset: fc.option(fc.constantFrom('Z', 'z', '+02:00', '-0530', '+02', '+24:00', '+02:60', '+2:00', '-00:00', '+00:53:28', '-01:02:60')),
      }),
    ),
  })
  .map(({ year, month, day, time }) => {
    let text = `${year}-${month}-${day}`;
    if (time) {
      text += `${time.sep}${time.hour}:${time.minute}`;
      if (time.second !== null) text += `:${time.second}${time.fraction ?? ''}`;
      if (time.offset !== null) text += `${time.space}${time.offset}`;
    }
    return text;
  });

/** What the pattern leaves to the parser: the 29th to 31st of shorter months, and years outside 1…9999. */
function decidedByPattern(text: string): boolean {
  const [y, m, d] = text.split(/[-T ]/).map(Number);
  return d <= daysInMonth(y, m) && (parseTimestamp(text, 'UTC') as { reason?: string }).reason !== 'range';
}

describe('TIMESTAMP_PATTERN', () => {
  it('accepts the examples', () => {
    for (const t of TIMESTAMP_EXAMPLES) expect(pattern.test(t) && parses(t), t).toBe(true);
  });

  it('agrees with the parser, except for days a month lacks', () => {
    fc.assert(
      fc.property(candidates, (text) => {
        expect(pattern.test(text), text).toBe(parses(text) || (pattern.test(text) && !decidedByPattern(text)));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses what people get wrong', () => {
    for (const t of ['2025-05-12T18:00:00 02:00', '12.05.2025', '2025-05-12T18', 'morgen', '2025-05-12T18:00:00+02:00:0']) {
      expect(pattern.test(t), t).toBe(false);
      expect(parses(t), t).toBe(false);
    }
  });
});
