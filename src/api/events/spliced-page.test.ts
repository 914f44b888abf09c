// expand=categories pages from the file: a page whose rows' expansions are known already is read
// straight into its answer's buffer and each row moved into place there (list.ts,
// splicedInPlace); any other is spliced from rows read on their own. Both must give the same
// bytes, and the first must read each run of rows once, into the answer itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleDist } from '../../../test/helpers.ts';
import { createApi, type Api } from '../core.ts';
import { bodyBuffer } from '../body.ts';
import { loadDataset, type Dataset } from '../../query/dataset.ts';
import type { FileRows } from '../../store/read/file-rows.ts';

// each test on data of its own: the rows' known expansions (what takes a page in place) are kept with them
let dataset: Dataset;
let api: Api;
beforeEach(() => {
  dataset = loadDataset(sampleDist());
  api = createApi(dataset, { cacheLimits: { entries: 0, bytes: 0 } });
});
afterEach(() => dataset.events.rows.close());

/** the reads of the rows' file while `work` runs: where each went and how long it was */
function reads<T>(work: () => T): { result: T; targets: ArrayBufferLike[]; lengths: number[] } {
  const source = (dataset.events.rows as unknown as { source: FileRows }).source;
  const own = Object.getOwnPropertyDescriptor(source, 'readInto');
  const readInto = source.readInto.bind(source);
  const targets: ArrayBufferLike[] = [];
  const lengths: number[] = [];
  source.readInto = (target, offset, at, length) => {
    targets.push(target.buffer);
    lengths.push(length);
    readInto(target, offset, at, length);
  };
  try {
    return { result: work(), targets, lengths };
  } finally {
    if (own) Object.defineProperty(source, 'readInto', own);
    else delete (source as { readInto?: unknown }).readInto;
  }
}

/** the answer's body as the core made it (a page read from the file: a pooled block nobody gives back, ordinary garbage) */
function page(query: string): Buffer {
  const r = api({ method: 'GET', path: '/v1/cms/event/', query, headers: {} });
  expect(r.status, query).toBe(200);
  return bodyBuffer(r.body);
}

/** runs of rows next to each other in the file among the page's events (the default order is the file's) */
function runsOf(query: string): number {
  const plain = JSON.parse(page(query.replace('expand=categories', 'fields=id')).toString()) as { results: { id: number }[] };
  const rows = plain.results.map((e) => dataset.events.table.rowById.get(e.id)!);
  return rows.filter((row, i) => i === 0 || row !== rows[i - 1] + 1).length;
}

describe('expand=categories pages from the file', () => {
  it('are the same bytes read straight into the answer once the expansions are known, a read per run of rows', () => {
    const queries = [
      'expand=categories&limit=12&offset=30',
      'expand=categories&limit=40&offset=150',
      'expand=categories&limit=50&offset=190',
      // rows apart in the file: a run each, or a few together
      'expand=categories&register=true&limit=30&offset=7',
      'expand=categories&categories=1&limit=25',
      'expand=categories&register=true&offset=1000',
    ];
    for (const query of queries) {
      const first = reads(() => page(query));
      const again = reads(() => page(query));
      expect(again.result.equals(first.result), query).toBe(true);
      JSON.parse(again.result.toString());
      const runs = runsOf(query);
      expect(again.lengths.length, query).toBe(runs);
      // into the answer's own buffer, nothing read on its own
      for (const target of again.targets) expect(target === again.result.buffer, query).toBe(true);
    }
  });

  it('splice a page some of whose rows were never listed from rows read on their own, and the same bytes', () => {
    page('expand=categories&limit=10&offset=60');
    const mixed = 'expand=categories&limit=20&offset=65';
    const first = reads(() => page(mixed));
    expect(first.targets.length).toBeGreaterThan(0);
    expect(first.targets.some((target) => target === first.result.buffer)).toBe(false);
    const again = reads(() => page(mixed));
    expect(again.result.equals(first.result)).toBe(true);
    expect(again.targets).toEqual([again.result.buffer]);
  });

  it('keep an ordered page in its order, spliced from its rows read in the file\'s order', () => {
    for (const query of ['expand=categories&ordering=title&limit=30&offset=20', 'expand=categories&ordering=-start&limit=15']) {
      const first = page(query);
      expect(page(query).equals(first), query).toBe(true);
      const ids = (JSON.parse(first.toString()) as { results: { id: number }[] }).results.map((e) => e.id);
      const plain = (JSON.parse(page(query.replace('expand=categories', 'fields=id')).toString()) as { results: { id: number }[] }).results.map((e) => e.id);
      expect(ids).toEqual(plain);
    }
  });
});
