// Bad input (issue 7): random and extreme query strings over every parameter, lookup and value
// shape, through the API core (volume) and through the real HTTP server over the bundled sample.
// Never a 5xx, never a hang; every 400 is JSON naming parameters that were sent; pathological
// regexes are answered within the request's work budget (counted, not timed) or refused.
import fc from 'fast-check';
import { validateHeaderValue } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../../src/api/core.ts';
import { FILTER_PARAMETERS, STRING_LOOKUPS, TIME_LOOKUPS } from '../../src/query/events/catalog.ts';
import { QueryParams } from '../../src/query/query-dict.ts';
import type { ApiResponse } from '../../src/api/respond.ts';
import { EVENT_FIELDS } from '../../src/model/event-fields.ts';
import { TEXT_FIELDS } from '../../src/store/format/event-table.ts';
import { loadDataset, type Dataset } from '../../src/query/dataset.ts';
import { sampleDist, serve } from '../helpers.ts';
import type { RunningServer } from '../../src/server/http.ts';
import type { BodyChunks } from '../../src/api/body.ts';
import { DEFAULT_WORK_LIMIT } from '../../src/query/work-budget.ts';
import { adversarialPattern, BACKTRACKING_PATTERNS, HEAVIEST_PATTERNS, ISSUE_PATTERNS, underLimit } from '../../src/query/regex/test-adversarial-patterns.ts';

const LIST = '/v1/cms/event/';
const AUTOCOMPLETE = '/v1/api/autocomplete/';
const RESERVED = ['limit', 'offset', 'format', 'expand', 'fields', 'omit', 'q', 'm'];
const FILTER_NAMES = FILTER_PARAMETERS.map((p) => p.name);
const NO_CACHE = { cacheLimits: { entries: 0, bytes: 0 } };

let ds: Dataset;
let api: Api;
let server: RunningServer;
let eventIds: number[];

beforeAll(async () => {
  // read only
  const dist = sampleDist();
  ds = loadDataset(dist);
  api = createApi(ds);
  eventIds = [...ds.events.table.columns.id.subarray(0, 5)];
  server = await serve(dist, { watch: false });
});
afterAll(async () => {
  await server?.close(1_000);
});

// ---------------------------------------------------------------------------------------------
// Arbitraries

const anyText = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }).map(String),
  fc.double().map(String),
  fc.constantFrom('-1', '0', '-0', '1e400', '-1e400', '0x10', '1_000', '1__0', '+8', ' 8', '008', '1.5', '2.5e1', 'NaN', 'Infinity',
    '9'.repeat(400), '-' + '9'.repeat(400), '١٢', '²', '', ' ', '\u00a0', '1 2', '--1'),
);
const timeText = fc.oneof(
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2025-05-09T16:00:00+02:00', '2025-05-09T16:00:00Z', '2025-05-09 16:00', '2026-07-14', '2026-07-14t08:15', '2025-13-01',
    '2025-10-26T02:30:00', '2025-03-30T02:30:00', '0000-01-01', '9999-12-31T23:59:59Z', '+275760-09-13T00:00:00Z', '2025-05-09T16:00:00+99:99',
    '2025-02-29', '2024-02-29T24:00', '2025-05-09T16:00:00.123456789Z', '2025-05-09T16:00:00+0200', '2025-05', 'T', ':', '2025-05-09T16:00:00 02:00'),
);
const regexText = fc.oneof(
  fc.constantFrom('(', '[', ')', '\\', '(a+)+$', '(.*a){20}', '\\p{L}', '\\bWork', '\\mWork', '[[:upper:]]{3}', '(?i)x', '(?P<n>x)', 'a{1001}',
    'a{2,1}', '\\u00fc', '\\x{110000}', '(?=x)', '\\1', '[z-a]', '.*'.repeat(50), '$^', '\\Q(\\E', '(?#c)', '\\', '[^]', '()', '|', '*', '+?', '{,}'),
  fc.string({ unit: fc.constantFrom(...'()[]{}*+?|^$.\\-,:=!<>aAzZ09 ü'.split('')), maxLength: 30 }),
);
const listText = fc
  .array(fc.oneof(fc.constantFrom(...EVENT_FIELDS, '*', 'Categories', 'campus.Person', 'CAMPUS.PERSON', 'geo.room', 'foo.Bar', '', ' '), anyText), { maxLength: 6 })
  .chain((parts) => fc.constantFrom(',', ', ', ',,').map((sep) => parts.join(sep)));
const formatText = fc.constantFrom('json', 'api', 'ics', 'xml', '', 'JSON', 'html', 'csv', 'api ', 'json\u0000', '__proto__', 'constructor', 'toString', 'hasOwnProperty');
const valueText = fc.oneof(anyText, numberText, timeText, regexText, listText, formatText);

const lookupName = fc
  .tuple(fc.constantFrom(...TEXT_FIELDS, 'start', 'end', 'dfp_points', 'id', 'categories', 'allday', 'groups', 'foo', '__proto__', 'constructor'),
    fc.oneof(fc.constantFrom(...STRING_LOOKUPS, ...TIME_LOOKUPS, 'isnull', 'in', 'range', 'exact', ''), anyText))
  .map(([f, l]) => `${f}__${l}`);
const paramName = fc.oneof(
  { arbitrary: fc.constantFrom(...FILTER_NAMES, ...RESERVED), weight: 6 },
  { arbitrary: lookupName, weight: 2 },
  { arbitrary: anyText, weight: 2 },
);

/** How a piece goes into the query: properly encoded, raw, or with broken escapes mixed in. */
const BROKEN = ['%', '%Z', '%0', '%zz', '%00', '%FF', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', '%%', '%2', '+', '%2B', '%26', '%3D'];
const encode = (s: string) => new URLSearchParams([['', s]]).toString().slice(1);
const piece = (text: string) =>
  fc.oneof(
    { arbitrary: fc.constant(encode(text)), weight: 4 },
    { arbitrary: fc.constant(text), weight: 1 },
    {
      arbitrary: fc.tuple(fc.nat(text.length), fc.constantFrom(...BROKEN)).map(([at, b]) => {
        const e = encode(text);
        const i = Math.min(at, e.length);
        return e.slice(0, i) + b + e.slice(i);
      }),
      weight: 1,
    },
  );
const pair = fc.tuple(paramName, valueText).chain(([name, value]) =>
  fc.oneof(
    fc.tuple(piece(name), piece(value)).map(([n, v]) => `${n}=${v}`),
    piece(name), // a name without `=`
  ),
);
const rawQuery = fc.tuple(fc.array(pair, { maxLength: 8 }), fc.constantFrom('&', '&&', ';')).map(([pairs, sep]) => pairs.join(sep));

// ---------------------------------------------------------------------------------------------
// The oracle

function acceptedFormats(path: string): (string | undefined)[] {
  return [undefined, '', 'json', 'api', ...(path === LIST ? ['ics'] : [])];
}

/** Checks an answer to GET path?query; returns a description of the first problem, or null. */
function problem(path: string, query: string, r: { status: number; headers: Record<string, string>; body: string }): string | null {
  if (r.status >= 500) return `status ${r.status}`;
  const params = QueryParams.parse(query);
  const type = r.headers['content-type'] ?? r.headers['Content-Type'];
  for (const [name, value] of Object.entries(r.headers)) {
    try {
      validateHeaderValue(name, value);
    } catch {
      return `header ${name} not sendable: ${JSON.stringify(value).slice(0, 80)}`;
    }
    if (/^x-ignored-parameters$/i.test(name) && (value === '' || value.length > 1100 || /[^\x20-\x7e]/.test(value))) return `X-Ignored-Parameters: ${value.slice(0, 80)}`;
  }
  if (r.status === 200 && params.get('format') === 'ics' && path === LIST) {
    return type?.startsWith('text/calendar') && r.body.startsWith('BEGIN:VCALENDAR') ? null : `calendar answer ${type}`;
  }
  if (type !== 'application/json') return `content type ${type}`;
  let body: any;
  try {
    body = JSON.parse(r.body);
  } catch {
    return 'body is not JSON';
  }
  if (r.status === 400) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === 'detail') {
      // a request that needs more work than it may do: what was too expensive, a sent parameter
      // (`teaser__iregex`, `q`, `format=ics`) or a part of the answer (`the page of 1000 events`)
      const m = /^Too expensive: (.+?) needs more work than one request may do \(\d+ units\)\./.exec(String(body.detail));
      if (!m) return `400 detail ${String(body.detail).slice(0, 80)}`;
      const named = m[1].includes(' ') ? null : m[1].split('=')[0];
      return named !== null && !params.has(named) ? `400 names ${named}, which was not sent` : null;
    }
    if (keys.length === 0) return '400 names no parameter';
    for (const k of keys) {
      if (!params.has(k)) return `400 names ${k}, which was not sent`;
      if (!Array.isArray(body[k]) || body[k].length === 0 || !body[k].every((m: unknown) => typeof m === 'string' && m !== '')) return `400 message of ${k}`;
    }
    return null;
  }
  if (r.status === 404) {
    if (JSON.stringify(body) !== '{"detail":"Not found."}') return `404 body ${r.body.slice(0, 80)}`;
    // the reference's answer to an unknown `format` (which names no parameter)
    if (!acceptedFormats(path).includes(params.get('format'))) return null;
    // or an event the filters leave out (DRF's get_object filters first): the list filtered the
    // same way (to that id, unless the query names one of its own) does not hold it
    const id = /^\/v1\/cms\/event\/(\d+)\/$/.exec(path)?.[1];
    if (id === undefined) return '404 without an unknown format';
    const listed = get(LIST, `${query}${params.has('id') ? '' : `&id=${id}`}&fields=id&omit=&expand=&offset=0&limit=1000&format=json`);
    if (listed.status !== 200) return `404 for event ${id}, where the list answers ${listed.status}`;
    const ids = (JSON.parse(text(listed.body)).results as { id: number }[]).map((e) => e.id);
    return ids.includes(Number(id)) ? `404 for event ${id}, which its filters keep` : null;
  }
  if (r.status !== 200) return `status ${r.status}`;
  if (path === LIST || path === AUTOCOMPLETE) {
    if (!Number.isSafeInteger(body.count) || body.count < 0) return `count ${body.count}`;
    if (!Array.isArray(body.results) || body.results.length > 1000) return 'results';
    for (const link of [body.next, body.previous]) {
      if (link !== null && !(typeof link === 'string' && link.startsWith(`${ds.baseUrl}${path}?`))) return `link ${String(link).slice(0, 80)}`;
    }
  }
  return null;
}

const text = (body: string | Buffer | BodyChunks) => (typeof body === 'string' ? body : body.toString());

function lowerHeaders(r: ApiResponse) {
  return { status: r.status, body: text(r.body), headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v])) };
}

/**
 * The CPU time the request took (user + system, of this process): the work done, which other
 * processes on a busy machine do not inflate the way they inflate wall time. The core is
 * synchronous, so this is the time the event loop would be blocked.
 */
function timed(request: () => ApiResponse): { response: ApiResponse; ms: number } {
  const started = process.cpuUsage();
  const response = request();
  const used = process.cpuUsage(started);
  return { response, ms: (used.user + used.system) / 1000 };
}

const get = (path: string, query: string, a: Api = api) => a({ method: 'GET', path, query, headers: {} });

// ---------------------------------------------------------------------------------------------

describe('random query strings through the API core', () => {
  it('never a 5xx, never slow, every 400 names sent parameters (all routes)', () => {
    const path = fc.oneof(
      { arbitrary: fc.constant(LIST), weight: 6 },
      { arbitrary: fc.constant(AUTOCOMPLETE), weight: 2 },
      { arbitrary: fc.constantFrom(...eventIds.map((id) => `${LIST}${id}/`)), weight: 1 },
      { arbitrary: fc.constant('/v1/schema/'), weight: 1 },
    );
    fc.assert(
      fc.property(path, rawQuery, (p, q) => {
        const { response, ms } = timed(() => get(p, q));
        const found = problem(p, q, lowerHeaders(response));
        if (found) throw new Error(`${found}\n  GET ${p}?${q}`);
        if (ms > 1_000) throw new Error(`took ${Math.round(ms)} ms: GET ${p}?${q}`);
      }),
      { numRuns: 2_500, endOnFailure: true },
    );
  });

  it('also with arbitrary (unparsed) query text and any Accept', () => {
    const accept = fc.constantFrom(undefined, 'text/html', 'application/json', '*/*', 'text/html;q=0.1, application/json;q=0.01', 'application/xml', ';;,,', 'text/*');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), accept, (q, a) => {
        const response = api({ method: 'GET', path: LIST, query: q, headers: { accept: a } });
        if (response.status >= 500) throw new Error(`status ${response.status}: ?${q}`);
        if (response.status >= 400) expect(response.headers['Content-Type']).toBe('application/json');
      }),
      { numRuns: 1_000 },
    );
  });

  it('10,000 parameters: unknown, repeated filters, repeated ids, every filter with garbage', () => {
    const known = [...ds.categories.ids][0];
    const cases: [string, string, number][] = [
      ['distinct unknown names', Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&'), 200],
      ['the same filter 10,000 times', Array.from({ length: 10_000 }, (_, i) => `title__icontains=${i % 10}`).join('&'), 200],
      ['10,000 category ids', Array.from({ length: 10_000 }, () => `categories=${known}`).join('&'), 200],
      ['10,000 regexes', Array.from({ length: 10_000 }, () => 'title__regex=(a%2B)%2B%24').join('&'), 200],
      ['every filter with garbage, cycled', Array.from({ length: 10_000 }, (_, i) => `${FILTER_NAMES[i % FILTER_NAMES.length]}=%28%5Bx${i}`).join('&'), 400],
      ['10,000 limits', Array.from({ length: 10_000 }, (_, i) => `limit=${i - 5_000}`).join('&'), 200],
      ['10,000 empty names', '&='.repeat(10_000), 200],
    ];
    for (const [name, query, status] of cases) {
      for (const path of [LIST, AUTOCOMPLETE]) {
        const { response, ms } = timed(() => get(path, query, createApi(ds, NO_CACHE)));
        const expected = path === AUTOCOMPLETE ? 200 : status;
        expect(response.status, `${name} ${path}`).toBe(expected);
        expect(problem(path, query, lowerHeaders(response)), name).toBeNull();
        expect(ms, name).toBeLessThan(2_000);
        if (name === 'distinct unknown names') {
          const header = response.headers['X-Ignored-Parameters'];
          expect(header.startsWith('p0, p1, p2')).toBe(true);
          expect(header.length).toBeLessThanOrEqual(1024);
          expect(header.endsWith(', ...')).toBe(true);
        }
      }
    }
  });

  it('100 KB values in every parameter', () => {
    const values = {
      ascii: 'a'.repeat(100_000),
      umlauts: encodeURIComponent('ü'.repeat(50_000)),
      broken: '%00%E0%A4%ZZ,'.repeat(8_000),
      digits: '9'.repeat(100_000),
      regex: encodeURIComponent('(a+)+'.repeat(20_000)),
    };
    const fresh = createApi(ds, NO_CACHE);
    // a 100 KB regex takes ~0.5 s to compile: one field stands for all six (same code path)
    const names = [...FILTER_NAMES.filter((n) => !/regex$/.test(n) || n.startsWith('title__')), ...RESERVED, 'unknown'];
    for (const name of names) {
      for (const [kind, value] of Object.entries(values)) {
        if (kind === 'regex' && !/regex$/.test(name)) continue;
        const path = name === 'q' || name === 'm' ? AUTOCOMPLETE : LIST;
        const query = `${name}=${value}`;
        const { response, ms } = timed(() => get(path, query, fresh));
        expect(problem(path, query, lowerHeaders(response)), `${name} ${kind}`).toBeNull();
        expect(ms, `${name} ${kind}`).toBeLessThan(3_000);
      }
    }
  });

  it('negative and huge numbers in limit, offset, id and dfp_points', () => {
    const huge = '9'.repeat(5_000);
    for (const [query, check] of [
      [`offset=${huge}`, (b: any) => b.results.length === 0 && b.previous.includes(`offset=${huge.slice(0, -2)}`)],
      [`limit=${huge}`, (b: any) => b.results.length === Math.min(ds.site.max_page_size, ds.events.table.length)],
      [`limit=-${huge}&offset=-${huge}`, (b: any) => b.results.length === ds.site.page_size && b.previous === null],
      [`offset=${Number.MAX_SAFE_INTEGER + 2}`, (b: any) => b.results.length === 0],
      [`id=${huge}`, (b: any) => b.count === 0],
      [`dfp_points__gte=-${huge}`, (b: any) => typeof b.count === 'number'],
      [`dfp_points=1e400`, (b: any) => typeof b.count === 'number'],
      [`categories=${huge}`, null],
    ] as const) {
      const response = get(LIST, query);
      expect(problem(LIST, query, lowerHeaders(response)), query).toBeNull();
      if (check) expect(check(JSON.parse(text(response.body))), query).toBe(true);
      else expect(response.status).toBe(400);
    }
  });
});

describe('pathological regexes through the API core', () => {
  type Outcome = { status: number; body: any; used: number; query: string };

  /** GET the list with `param=pattern`, its work counted by a meter around the core (which answers 400 past its own limit). */
  function counted(fresh: Api, param: string, pattern: string): Outcome {
    const query = `${param}=${encodeURIComponent(pattern)}&limit=5`;
    const r = underLimit(DEFAULT_WORK_LIMIT, () => get(LIST, query, fresh));
    expect(r.refused, query).toBeNull();
    const response = r.result!;
    const body = JSON.parse(text(response.body));
    if (response.status === 400 && typeof body.detail === 'string') {
      // the core's refusal names what was too expensive: the parameter
      expect(body.detail, query).toMatch(new RegExp(`^Too expensive: ${param} needs more work than one request may do \\(${DEFAULT_WORK_LIMIT} units\\)`));
      expect(response.headers['Content-Type']).toBe('application/json');
    } else expect(problem(LIST, query, lowerHeaders(response)), query).toBeNull();
    return { status: response.status, body, used: r.used, query };
  }

  /** Answered within the budget, or refused as documented: the pattern too long, too large or not RE2, or too expensive. */
  function check(o: Outcome, param: string): void {
    if (o.status === 200) {
      expect(o.used, o.query).toBeLessThanOrEqual(DEFAULT_WORK_LIMIT);
      return;
    }
    expect(o.status, o.query).toBe(400);
    if ('detail' in o.body) expect(o.body.detail, o.query).toMatch(/^Too expensive: /);
    else {
      expect(Object.keys(o.body), o.query).toEqual([param]);
      expect(o.body[param][0], o.query).toMatch(/^(This pattern is too large: it compiles to \d+ instructions, at most 1500 are allowed\.|Enter a valid regular expression: .+\.|Ensure this value has at most 1000 characters \(it has \d+\)\.)$/);
    }
  }

  const params = TEXT_FIELDS.flatMap((field) => [`${field}__regex`, `${field}__iregex`]);

  it("answers each within the work budget or refuses it, on every text field: the issue's patterns, the heaviest, backtracking ones, generated ones", () => {
    const fresh = createApi(ds, NO_CACHE);
    const outcomes: Outcome[] = [];
    for (const pattern of [...ISSUE_PATTERNS, ...HEAVIEST_PATTERNS, ...BACKTRACKING_PATTERNS]) {
      for (const param of params) {
        const o = counted(fresh, param, pattern);
        check(o, param);
        outcomes.push(o);
      }
    }
    fc.assert(
      fc.property(adversarialPattern, fc.constantFrom(...params), (pattern, param) => {
        const o = counted(fresh, param, pattern);
        check(o, param);
        outcomes.push(o);
      }),
      { numRuns: 300 },
    );
    // the issue's patterns are refused by their size, before any work
    for (const o of outcomes.slice(0, ISSUE_PATTERNS.length * params.length)) expect(o.body[Object.keys(o.body)[0]][0], o.query).toMatch(/too large/);
    // the meter saw the work: some answers cost millions of units, the heaviest patterns over the teasers were refused as too expensive
    expect(Math.max(...outcomes.filter((o) => o.status === 200).map((o) => o.used))).toBeGreaterThan(1_000_000);
    expect(outcomes.filter((o) => o.body.detail?.startsWith('Too expensive')).map((o) => o.query.split('=')[0])).toContain('teaser__iregex');
  });

  it('10 KB of nested quantifiers: refused by their length, before any work', () => {
    const fresh = createApi(ds, NO_CACHE);
    for (const pattern of ['(a+)+'.repeat(2_000), '(.*a)'.repeat(2_000), '(a|b)'.repeat(2_000), '(a{1,10})'.repeat(1_100)]) {
      for (const param of ['title__regex', 'teaser__iregex']) {
        const o = counted(fresh, param, pattern);
        expect(o.status).toBe(400);
        expect(o.body).toEqual({ [param]: [`Ensure this value has at most 1000 characters (it has ${pattern.length}).`] });
        expect(o.used).toBe(0);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Over HTTP

async function httpGet(pathAndQuery: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${pathAndQuery}`, { headers: { 'accept-encoding': 'identity', ...headers }, redirect: 'manual' });
  const body = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), body };
}

describe('random query strings through the HTTP server', () => {
  it('never a 5xx, every 400 names sent parameters', async () => {
    // fetch re-encodes what a URL cannot hold (spaces, non-ASCII, `#`), so the oracle reads the
    // query the server actually received: the one fetch put on the wire
    const safe = rawQuery.map((q) => q.replace(/#/g, '%23'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(LIST, LIST, LIST, AUTOCOMPLETE), safe, async (p, q) => {
        const sent = new URL(`${server.url}${p}?${q}`);
        const r = await httpGet(`${sent.pathname}${sent.search}`);
        const found = problem(p, sent.search.slice(1), r);
        if (found) throw new Error(`${found}\n  GET ${p}?${sent.search.slice(1)}`);
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('10,000 parameters do not fit the request line: 431 JSON; 5,000 do and are answered', async () => {
    const tooMany = await httpGet(`${LIST}?${Array.from({ length: 10_000 }, () => 'a').join('&')}`);
    expect(tooMany.status).toBe(431);
    expect(JSON.parse(tooMany.body)).toEqual({ detail: 'Request line or header fields too large.' });
    const many = await httpGet(`${LIST}?${Array.from({ length: 5_000 }, (_, i) => (i % 2 ? 'a' : 'b')).join('&')}&limit=1`);
    expect(many.status).toBe(200);
    expect(many.headers['x-ignored-parameters']).toBe('b, a');
  });

  it('a 100 KB value is refused before the core: 431 JSON', async () => {
    for (const name of ['title__icontains', 'q', 'limit']) {
      const r = await httpGet(`${name === 'q' ? AUTOCOMPLETE : LIST}?${name}=${'x'.repeat(100_000)}`);
      expect(r.status, name).toBe(431);
      expect(r.headers['content-type']).toBe('application/json');
      expect(JSON.parse(r.body)).toEqual({ detail: 'Request line or header fields too large.' });
    }
  });

  it('a 10 KB pattern fits the request line and is refused by its length', async () => {
    const alternation = `(${Array.from({ length: 1_800 }, (_, i) => `w${i}`).join('|')})`.slice(0, 10_000);
    const patterns = [alternation.replace(/\|[^|]*$/, ')'), `${'(a|b)'.repeat(2_000)}`, `${'(.*a)'.repeat(2_000)}`];
    for (const pattern of patterns) {
      expect(pattern.length).toBeGreaterThanOrEqual(9_000);
      for (const lookup of ['regex', 'iregex']) {
        // `(`, `)`, `|`, `.` and `*` travel unencoded; only `+` would change meaning
        const r = await httpGet(`${LIST}?title__${lookup}=${pattern.replace(/\+/g, '%2B')}&limit=1`);
        expect(problem(LIST, `title__${lookup}=${pattern.replace(/\+/g, '%2B')}`, r)).toBeNull();
        expect(r.status, pattern.slice(0, 30)).toBe(400);
        expect(JSON.parse(r.body)).toEqual({ [`title__${lookup}`]: [`Ensure this value has at most 1000 characters (it has ${pattern.length}).`] });
      }
    }
  });

  it('malformed percent-encoding, %00 and raw bytes in path and query', async () => {
    for (const target of [
      `${LIST}?%`, `${LIST}?%%%`, `${LIST}?title=%00`, `${LIST}?%00=%00`, `${LIST}?title__regex=%E0%A4%A`, `${LIST}?q=%ED%A0%80`,
      `${LIST}?limit=%FF&offset=%C0%80`, `${AUTOCOMPLETE}?q=%00&m=%00`, `${AUTOCOMPLETE}?m=%E2%82%AC`, `${LIST}?%E2%82%AC=1&%0D%0AX-Evil:%201=1`,
      `${LIST}%00/`, `${LIST}%E0%A4%A/`, `${LIST}%2e%2e/`, `${LIST}?expand=%E2%82%AC,categories&fields=%0A`,
    ]) {
      const r = await httpGet(target);
      expect(r.status, target).toBeLessThan(500);
      expect(r.headers['content-type'], target).toBe('application/json');
      expect(r.headers['x-evil'], target).toBeUndefined();
    }
  });
});
