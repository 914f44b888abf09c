import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { EventRows, serializeEvent } from '../format/event-rows.ts';
import { compactOffsets, RowOffsetsCheck, rowOffsetsProblem } from './row-offsets.ts';

const event = (title: string) => serializeEvent(Object.fromEntries(EVENT_FIELDS.map((f) => [f, f === 'title' ? title : null])) as never);

describe('rowOffsetsProblem', () => {
  const rows = EventRows.from([event('eins, "zwei"'), event('{"a":1}'), event('drei')]);

  it('accepts the offsets the rows were written with', () => {
    expect(rowOffsetsProblem(rows.lineBytes, rows.starts)).toBeNull();
  });

  it('refuses every single offset changed by ±1, and every two swapped within a row', () => {
    const stride = EVENT_FIELDS.length + 1;
    for (let i = 0; i < rows.starts.length; i++) {
      for (const delta of [-1, 1]) {
        const starts = rows.starts.slice();
        starts[i] += delta;
        expect(rowOffsetsProblem(rows.lineBytes, starts), `offset ${i} ${delta}`).not.toBeNull();
      }
    }
    for (let a = 0; a < stride; a++) {
      for (let b = a + 1; b < stride; b++) {
        const starts = rows.starts.slice();
        [starts[a], starts[b]] = [starts[b], starts[a]];
        expect(rowOffsetsProblem(rows.lineBytes, starts), `${a} ↔ ${b}`).not.toBeNull();
      }
    }
  });

  it('refuses offsets that are not whole rows, or beyond the data', () => {
    expect(rowOffsetsProblem(rows.lineBytes, rows.starts.subarray(1))).toMatch(/whole rows/);
    expect(rowOffsetsProblem(rows.lineBytes.subarray(0, 10), rows.starts)).toMatch(/event 0/);
  });
});

describe('compactOffsets', () => {
  it('holds offsets in 16 bits when all fit, with the same values, and leaves them as they are when one does not', () => {
    const rows = EventRows.from([event('eins'), event('zwei')]);
    const compact = compactOffsets(rows.starts as Uint32Array);
    expect(compact).toBeInstanceOf(Uint16Array);
    expect(Array.from(compact)).toEqual(Array.from(rows.starts));
    expect(rowOffsetsProblem(rows.lineBytes, compact)).toBeNull();
    const big = EventRows.from([event('x'.repeat(70_000))]);
    expect(compactOffsets(big.starts as Uint32Array)).toBe(big.starts);
    // rows served from 16-bit offsets read as from the originals
    const served = new EventRows(rows.lineBytes, compact);
    expect(served.json(1)).toBe(rows.json(1));
    expect(served.value(1, EVENT_FIELDS.indexOf('title'))).toBe('"zwei"');
  });
});


describe('RowOffsetsCheck', () => {
  const rows = EventRows.from(Array.from({ length: 12 }, (_, i) => event(`${'ä'.repeat(i * 7)} "${i}"`)));
  const lines = rows.lineBytes;

  /** the check fed `bytes` in pieces cut at `cuts`, each piece from a buffer that is overwritten after */
  const fedInPieces = (bytes: Uint8Array, starts: Uint32Array | Uint16Array, cuts: number[]) => {
    const check = new RowOffsetsCheck(starts, bytes.length);
    const scratch = new Uint8Array(bytes.length);
    let at = 0;
    for (const cut of [...cuts, bytes.length]) {
      const piece = scratch.subarray(0, cut - at);
      piece.set(bytes.subarray(at, cut));
      check.feed(piece);
      piece.fill(0x20);
      at = cut;
    }
    return check.finish();
  };
  const randomCuts = (length: number, seed: number) => {
    let x = seed;
    const cuts = new Set<number>();
    for (let i = 0; i < 1 + (seed % 9); i++) cuts.add((x = (x * 1103515245 + 12345) % 2147483648) % length);
    return [...cuts].sort((a, b) => a - b);
  };

  it('agrees with rowOffsetsProblem over the whole bytes, however they are cut (one byte at a time too)', () => {
    expect(fedInPieces(lines, rows.starts, Array.from({ length: lines.length - 1 }, (_, i) => i + 1))).toBeNull();
    for (let seed = 1; seed < 60; seed++) expect(fedInPieces(lines, rows.starts, randomCuts(lines.length, seed)), `seed ${seed}`).toBeNull();
  });

  it('finds the same problem as the whole check for changed offsets and bytes, cut anywhere', () => {
    for (let seed = 1; seed < 120; seed++) {
      const starts = rows.starts.slice();
      const bytes = Uint8Array.from(lines);
      if (seed % 2) starts[seed % starts.length] += seed % 4 === 1 ? 1 : -1;
      else bytes[(seed * 7919) % bytes.length] = 0x7d;
      const whole = rowOffsetsProblem(bytes, starts);
      if (whole === null) continue;
      expect(fedInPieces(bytes, starts, randomCuts(bytes.length, seed)), `seed ${seed}`).toBe(whole);
    }
  });

  it('refuses rows cut short, offsets that are not whole rows, and a row longer than all the bytes', () => {
    expect(fedInPieces(lines.subarray(0, lines.length - 5), rows.starts, [100])).toMatch(/event 11/);
    expect(fedInPieces(lines, rows.starts.subarray(1), [50])).toMatch(/whole rows/);
    const starts = rows.starts.slice();
    starts[EVENT_FIELDS.length] = lines.length * 2;
    expect(fedInPieces(lines, starts, [10, 20])).toMatch(/event 0 does not fit/);
  });
});
