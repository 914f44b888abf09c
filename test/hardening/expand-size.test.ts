// `expand=categories` over categories of a large size: the answer grows with each category
// object's bytes, but the work limit charges a page by the bytes of its rows as stored (the
// category ids), so a page of a few kilobytes of rows may come out as hundreds of megabytes (and,
// past 4 GiB, as node's RangeError: a 500). Every request is bounded: the answer either fits the
// work the limit allows (about a unit per byte copied) or is refused as too expensive.
import { describe, expect, it } from 'vitest';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { fixtureApi } from '../helpers.ts';

/** The default work limit (src/query/work-budget.ts), in units of about a byte copied. */
const WORK_LIMIT = 20_000_000;

const EVENTS = 100;
function site(noteBytes: number): Record<string, string> {
  let events = '';
  for (let i = 0; i < EVENTS; i++) {
    events += `- id: ${5000 + i}\n  title: Big ${i}\n  start: 2030-01-01T10:00\n  end: 2030-01-01T11:00\n  last_modified: 2029-01-01T00:00Z\n  categories: [3]\n`;
  }
  return {
    'site.yaml': FIXTURE_FILES['site.yaml'].replace(/max_page_size: \d+/, 'max_page_size: 1000'),
    // the fixture's categories, the first with one long key of its own
    'categories.yaml': `- id: 3\n  title: Vortrag\n  note: ${'x'.repeat(noteBytes)}\n- id: 7\n  title: Öffentlich\n`,
    'events/big.yaml': events,
  };
}

describe('expand=categories over large category objects', () => {
  // 100 events × a 400 KB category: an answer of 40 MB from 100 short rows
  const api = fixtureApi(site(400_000));

  it('is refused, or answers within the work limit', () => {
    const r = api.get('/v1/cms/event/?categories=3&expand=categories&limit=1000&fields=id,categories');
    if (r.status === 200) expect(r.text.length).toBeLessThan(WORK_LIMIT);
    else expect(r.json().detail).toMatch(/^Too expensive/);
  });

  it('with every field kept (the spliced page) too', () => {
    const r = api.get('/v1/cms/event/?categories=3&expand=categories&limit=1000');
    if (r.status === 200) expect(r.text.length).toBeLessThan(WORK_LIMIT);
    else expect(r.json().detail).toMatch(/^Too expensive/);
  });

  it('refused too where the expansions were kept by an earlier answer (the page spliced in place)', () => {
    // about 50 rows' expansions fit the limit: a page of 60 is refused on the way, its first rows' kept
    expect(api.get('/v1/cms/event/?categories=3&expand=categories&limit=60').status).toBe(400);
    const r = api.get('/v1/cms/event/?categories=3&expand=categories&limit=50');
    if (r.status === 200) expect(r.text.length).toBeLessThan(WORK_LIMIT);
    else expect(r.json().detail).toMatch(/^Too expensive/);
    // a page the limit allows is answered whole
    const small = api.get('/v1/cms/event/?categories=3&expand=categories&limit=10');
    expect(small.status).toBe(200);
    expect(small.json().results[0].categories[0].note).toHaveLength(400_000);
  });
});
