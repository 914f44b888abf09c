import { afterEach, describe, expect, it, vi } from 'vitest';
import { spyOnDecodes } from '../../test/decode-spy.ts';
import { sampleDist } from '../../test/helpers.ts';
import { loadDataset, type Dataset } from '../query/dataset.ts';
import { textDecodes } from '../store/read/column-files.ts';
import { decodeTextsSoon } from './decode-texts.ts';

/** The TextDecoder calls made while `run` runs, by their input's length. */
function decodes(run: () => void): number[] {
  const spy = spyOnDecodes();
  try {
    run();
  } finally {
    spy.restore();
  }
  return spy.seen;
}

afterEach(() => vi.useRealTimers());

describe('decodeTextsSoon', () => {
  it("leaves the columns' texts to after the load, then decodes each list once, one per turn of the event loop", () => {
    vi.useFakeTimers();
    const dataset = loadDataset(sampleDist());
    const lists = textDecodes(dataset.events.table).length;
    // title, organizer, location, teaser, contact, email (values and folded), the ISO texts
    expect(lists).toBeGreaterThanOrEqual(12);
    const log: string[] = [];
    decodeTextsSoon(dataset, (line) => log.push(line));
    expect(decodes(() => vi.advanceTimersByTime(999))).toEqual([]);
    // the first list at the timer, then one per immediate
    expect(decodes(() => vi.advanceTimersByTime(1))).toHaveLength(1);
    expect(decodes(() => vi.runOnlyPendingTimers())).toHaveLength(1);
    expect(decodes(() => vi.runAllTimers())).toHaveLength(lists - 2);
    // every list decoded: asked again, none decodes
    expect(decodes(() => textDecodes(dataset.events.table).forEach((decode) => decode()))).toEqual([]);
    expect(log).toEqual([]);
    dataset.close();
  });

  it('decodes nothing once stopped (the dataset replaced)', () => {
    vi.useFakeTimers();
    const dataset = loadDataset(sampleDist());
    const stop = decodeTextsSoon(dataset, () => {});
    vi.advanceTimersByTime(1000);
    stop();
    expect(decodes(() => vi.runAllTimers())).toEqual([]);
    expect(decodes(() => textDecodes(dataset.events.table).forEach((decode) => decode()))).toHaveLength(textDecodes(dataset.events.table).length - 1);
    dataset.close();
  });

  it('logs a list that does not fit its text and goes on with the next', () => {
    vi.useFakeTimers();
    const decoded: string[] = [];
    const list = (name: string, fits = true) => ({
      decodeAll() {
        if (!fits) throw new Error(`dist/data/columns/${name}.text.bin: a text column file whose values do not fit their text`);
        decoded.push(name);
      },
    });
    const stored = { text: { title: { values: list('title', false), folded: list('title folded') } }, iso: { start: { values: list('start'), folded: null } } };
    const log: string[] = [];
    decodeTextsSoon({ events: { table: { stored } } } as unknown as Dataset, (line) => log.push(line));
    vi.runAllTimers();
    expect(log).toEqual(['dist/data/columns/title.text.bin: a text column file whose values do not fit their text']);
    expect(decoded).toEqual(['title folded', 'start']);
  });
});
