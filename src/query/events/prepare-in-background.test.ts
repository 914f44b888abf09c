import { describe, expect, it } from 'vitest';
import { indexesFor, TableIndexes } from './indexes/table-indexes.ts';
import { TrigramIndex } from './indexes/trigram.ts';
import { prepareInBackground } from './prepare-in-background.ts';
import { buildTable, type FixtureEvent } from './table-fixture.ts';

const words = ['Kurs', 'Vortrag', 'Augenheilkunde', 'Labor', 'Fortbildung', 'Hörsaal', 'Seminar', 'Übung'];
function events(n: number): FixtureEvent[] {
  // more distinct values than the scan threshold, so the trigram steps run too
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    title: `${words[i % 8]} ${i} ${words[(i * 7) % 8]}`,
    teaser: `${words[(i * 3) % 8]} über ${i} und ${words[(i * 5) % 8]}`,
    location: `Raum ${i % 300}`,
    start: 1_700_000_000_000 + i * 3_600_000,
    dfp_points: i % 5,
    register: i % 2 === 0,
    categories: [i % 4],
    groups: [i % 3],
  }));
}

describe('prepareInBackground', () => {
  it('builds every index prepare() builds, one step per event-loop turn, answering timers in between', async () => {
    const table = buildTable(events(2_000));
    const reference = new TableIndexes(buildTable(events(2_000)));
    reference.prepare();
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const build = prepareInBackground(table);
    await build.done;
    clearInterval(ticker);
    const ix = indexesFor(table);
    expect(ix.byteSize()).toBe(reference.byteSize());
    expect(ix.text('teaser').hasTrigrams).toBe(true);
    expect(ix.prepareSteps().length).toBeGreaterThan(10);
    // the other callbacks ran while the build was under way, not only after it
    expect(turns).toBeGreaterThan(0);
    expect(build.longestStepMs).toBeGreaterThan(0);
  });

  it('stops before the next step when stopped', async () => {
    const table = buildTable(events(2_000));
    const build = prepareInBackground(table);
    build.stop();
    await build.done;
    expect(indexesFor(table).text('teaser').hasTrigrams).toBe(false);
  });

  it('reports a failing step and ends', async () => {
    const table = buildTable(events(50));
    Object.defineProperty(table.columns, 'text', { get: () => { throw new Error('events.text.json: damaged'); } });
    const errors: string[] = [];
    await prepareInBackground(table, (e) => errors.push(e.message)).done;
    expect(errors).toEqual(['events.text.json: damaged']);
  });
});

describe('TrigramIndex.buildInSteps', () => {
  it('builds, slice by slice, the same index as build', () => {
    const folded = events(3_000).map((e) => e.teaser!.toLowerCase());
    const whole = TrigramIndex.build(folded, 1 << 20);
    const steps = TrigramIndex.buildInSteps(folded, 1 << 20, 97);
    let pauses = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(2 * Math.ceil(3_000 / 97));
    expect(r.value.byteSize).toBe(whole.byteSize);
    expect(r.value.stats).toEqual(whole.stats);
    for (const text of ['über', 'kurs', 'labor 1', 'xyz']) {
      const q = { kind: 'run', text, atStart: false, atEnd: false } as const;
      expect(Array.from(r.value.candidates(q) ?? []), text).toEqual(Array.from(whole.candidates(q) ?? []));
    }
  });
});
