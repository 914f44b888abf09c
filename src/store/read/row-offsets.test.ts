import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { EventRows, serializeEvent } from '../format/event-rows.ts';
import { compactOffsets, rowOffsetsProblem } from './row-offsets.ts';

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

