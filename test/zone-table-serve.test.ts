// The node server answers a date filter from the dist's own zone table (manifest site.offsets), as
// the edge does and as the rows were written, not from the serving Node's tz data: a dist whose
// table says another offset than Intl is answered by its table.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../src/api/core.ts';
import { loadDataset } from '../src/query/dataset.ts';
import { FIXTURE_FILES } from './fixture-content.ts';
import { asker, buildOk, removeDir, tempDir, writeContent } from './helpers.ts';

let root: string;
let dist: string;
beforeAll(async () => {
  root = tempDir('aula-zone-table-');
  dist = join(root, 'dist');
  await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: dist });
});
afterAll(() => removeDir(root));

/** count of start__gte=`local` (a local time in the site's zone) as the dist at `dist` answers it */
function countFrom(local: string): number {
  const dataset = loadDataset(dist);
  try {
    return asker(createApi(dataset))(`/v1/cms/event/?start__gte=${local}&limit=1`).json().count;
  } finally {
    dataset.events.rows.close();
  }
}

describe("a dist's zone table", () => {
  it('sets the offsets a date filter is read in on the node server', () => {
    const path = join(dist, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    const [first, end] = (manifest.site.offsets as string).split(' ');
    const dataset = loadDataset(dist);
    const all = asker(createApi(dataset))('/v1/cms/event/?limit=1000').json().results as { start: string }[];
    dataset.events.rows.close();
    const starts = all.map((e) => Date.parse(e.start));
    // a local time at which the count differs between the zone's offset and one twelve hours off
    const local = (t: number) => new Date(t).toISOString().slice(0, 19);
    const shift = 12 * 3600_000;
    const at = starts.find((t) => starts.filter((s) => s >= t).length !== starts.filter((s) => s >= t + shift).length)!;
    expect(at).toBeDefined();
    const asIntl = countFrom(local(at + 3600_000));
    // the table: one offset, twelve hours east of UTC, over its whole span
    writeFileSync(path, JSON.stringify({ ...manifest, site: { ...manifest.site, offsets: `${first} ${end} ${12 * 3600}` } }));
    const asTable = countFrom(local(at + 3600_000));
    expect(asTable).toBe(starts.filter((s) => s >= at + 3600_000 - shift).length);
    expect(asTable).not.toBe(asIntl);
  });
});
