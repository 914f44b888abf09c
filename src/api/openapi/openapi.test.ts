import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { AUTOCOMPLETE_PARAMS } from '../autocomplete.ts';
import { createApi, type Api } from '../core.ts';
import { FILTER_CATALOG, FILTER_PARAMETERS } from '../../query/events/catalog.ts';
import type { Event, Media, PageNode, Site } from '../../model/types.ts';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { renderCategory, renderEvent, type RenderContext } from '../../render/event.ts';
import { loadDataset } from '../../query/dataset.ts';
import { openApiDocument } from './openapi.ts';

const BASE = 'https://events.example.at/api';
const doc = openApiDocument({ baseUrl: BASE, version: '1.2.3' }) as any;
const ID = 'https://aula.test/openapi.json';

function ajvFor(document: any) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // The component schemas as the $defs of one schema, which the rebased refs point into.
  ajv.addSchema({ $id: ID, $defs: document.components.schemas });
  return ajv;
}

/** The compiled schema `#/components/schemas/<name>`, refs resolved. */
function schemaValidator(ajv: InstanceType<typeof Ajv2020>, name: string) {
  const v = ajv.getSchema(`${ID}#/$defs/${name}`);
  if (!v) throw new Error(`no schema ${name}`);
  return v;
}

/** Rewrites refs for the registration above: `#/components/schemas/X` → `<ID>#/$defs/X`. */
function rebased(document: any): any {
  return JSON.parse(JSON.stringify(document).replaceAll('"#/components/schemas/', `"${ID}#/$defs/`));
}

const ajv = ajvFor(rebased(doc));

const zone = 'Europe/Vienna';
const site: Site = { base_url: BASE, timezone: zone, page_size: 20, max_page_size: 1000, title: null };
const pages = new Map<number, PageNode>([
  [1, { uid: 1, pid: 0, title: 'Startseite', is_siteroot: true, domains: ['www.example.at'], uri: 'https://www.example.at/' }],
  [5, { uid: 5, pid: 1, title: 'Fortbildung', is_siteroot: false, domains: [], uri: null }],
]);
const media = new Map<number, Media>([
  [11, { id: 11, filename: 'plakat.pdf', original: 'https://www.example.at/plakat.pdf', mimetype: 'application/pdf', size: 12345 }],
  [12, { id: 12, filename: 'Bild Ärzte.png', original: null, mimetype: 'image/png', size: 7 }],
]);
const ctx: RenderContext = { site, baseUrl: BASE, pages, media };

const full: Event = {
  id: 42,
  title: 'Vortrag über Herzgesundheit',
  start: Date.parse('2025-05-09T16:00:00+02:00'),
  end: Date.parse('2025-05-09T18:30:00.250+02:00'),
  allday: false,
  url: 'https://www.example.at/veranstaltungen/42',
  link: 'https://herz.example.at/',
  page: 5,
  categories: [7, 3],
  header_image: 12,
  media: [11, 12],
  related_media: [{ id: 1, media: 11, datetime: Date.parse('2025-01-01T00:00:00Z'), title: 'Programm', description: null }],
  organizer: 'Univ.-Prof. Dr. Eva Müller',
  location: 'Hörsaal 1',
  contact: 'Sekretariat',
  email: 'sekretariat@example.at',
  attending_fees_info: 'EUR 20,–',
  teaser: 'Ein Vortrag.',
  body: '<p>Ein Vortrag.</p>',
  register: true,
  attending_fees: true,
  registration_end: Date.parse('2025-05-01T23:59:00+02:00'),
  dfp_points: 3,
  last_modified: Date.parse('2025-03-01T10:00:00Z'),
  keywords: null,
  description: null,
  language: 'de',
  gallery: [],
  contact_box: [],
  groups: [],
  related_links: [],
};

const minimal: Event = {
  ...full,
  url: null,
  link: null,
  page: null,
  categories: [],
  header_image: null,
  media: [],
  related_media: [],
  organizer: null,
  location: null,
  contact: null,
  email: null,
  attending_fees_info: null,
  registration_end: null,
  dfp_points: null,
  language: null,
};

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has component schemas that are valid JSON Schema 2020-12 (ajv strict mode)', () => {
    for (const name of Object.keys(doc.components.schemas)) expect(() => schemaValidator(ajv, name), name).not.toThrow();
  });

  it('names the server and the version it was given', () => {
    expect(doc.servers).toEqual([{ url: BASE }]);
    expect(doc.info.version).toBe('1.2.3');
    expect(Object.keys(doc.paths)).toEqual(['/v1/cms/event/', '/v1/cms/event/{id}/', '/v1/api/autocomplete/']);
  });

  it('has one query parameter per filter and lookup of FILTER_CATALOG, in declaration order', () => {
    const params: any[] = doc.paths['/v1/cms/event/'].get.parameters;
    const names = params.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of FILTER_CATALOG) {
      expect(names).toContain(f.field);
      for (const lookup of f.lookups) if (lookup !== 'exact') expect(names).toContain(`${f.field}__${lookup}`);
    }
    const filters = params.filter((p) => FILTER_PARAMETERS.some((f) => f.name === p.name)).map((p) => p.name);
    expect(filters).toEqual(FILTER_PARAMETERS.map((f) => f.name));
    const rest = names.filter((n) => !filters.includes(n));
    expect(rest).toEqual(['limit', 'offset', 'format', 'expand', 'fields', 'omit', 'ordering', 'search', 'If-None-Match']);
  });

  it('types the filter values by their kind', () => {
    const param = (name: string) => doc.paths['/v1/cms/event/'].get.parameters.find((p: any) => p.name === name);
    expect(param('title__icontains').schema).toEqual({ type: 'string' });
    expect(param('start__gte').schema.pattern).toBeTypeOf('string');
    expect(param('start__startswith').schema).toEqual({ type: 'string' });
    expect(param('dfp_points__lt').schema).toEqual({ type: 'number' });
    expect(param('allday').schema).toEqual({ type: 'boolean' });
    expect(param('categories')).toMatchObject({ schema: { type: 'array', items: { type: 'integer' } }, explode: true });
    expect(param('format').schema.enum).toEqual(['json', 'api', 'ics']);
    expect(param('expand').schema.items.enum).toEqual(['categories', '*']);
    expect(param('fields').schema.items.enum).toEqual([...EVENT_FIELDS]);
    expect(param('ordering')).toMatchObject({ style: 'form', explode: false, schema: { type: 'array' } });
    expect(param('ordering').schema.items.enum).toContain('-dfp_points');
    expect(param('ordering').examples.upcoming.value).toEqual(['start']);
    expect(param('search').schema).toEqual({ type: 'string' });
    expect(Object.keys(param('search').examples)).toEqual(['words', 'phrase', 'folded']);
    for (const p of doc.paths['/v1/cms/event/'].get.parameters) expect(p.description, p.name).toBeTruthy();
  });

  it('documents every autocomplete parameter, with the models as the values of m', () => {
    const params: any[] = doc.paths['/v1/api/autocomplete/'].get.parameters;
    for (const name of AUTOCOMPLETE_PARAMS) expect(params.map((p) => p.name)).toContain(name);
    expect(params.find((p) => p.name === 'm').schema.items.enum).toEqual([
      'campus.Person', 'campus.Room', 'campus.Student', 'geo.Room', 'structure.Organization', 'structure.Person',
    ]);
  });

  it('has every EVENT_FIELDS key in the Event schema, in order, all required', () => {
    const event = doc.components.schemas.Event;
    expect(Object.keys(event.properties)).toEqual([...EVENT_FIELDS]);
    expect(event.required).toEqual([...EVENT_FIELDS]);
  });

  it('describes rendered events: full, minimal, expanded', () => {
    const validate = schemaValidator(ajv, 'Event');
    for (const e of [full, minimal]) {
      const rendered = JSON.parse(JSON.stringify(renderEvent(e, ctx)));
      expect(validate(rendered), JSON.stringify(validate.errors)).toBe(true);
    }
    const expanded = { ...renderEvent(full, ctx), categories: [renderCategory({ id: 7, title: 'Öffentlich', color: '#fff' })] };
    expect(validate(expanded), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses objects that are not events', () => {
    const validate = schemaValidator(ajv, 'Event');
    const rendered = renderEvent(full, ctx);
    expect(validate({ ...rendered, start: 'tomorrow' })).toBe(false);
    expect(validate({ ...rendered, title: null })).toBe(false);
    expect(validate({ ...rendered, surprise: 1 })).toBe(false);
    const { body: _, ...withoutBody } = rendered;
    expect(validate(withoutBody)).toBe(false);
  });
});

/** The schema the document declares for an answer, as an ajv validator. */
function declared(path: string, status: number, contentType = 'application/json') {
  let response = doc.paths[path].get.responses[String(status)];
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  const schema = response.content?.[contentType]?.schema;
  if (!schema) throw new Error(`${path} ${status} declares no ${contentType}`);
  return { validate: ajv.compile(rebased(schema)), headers: Object.keys(response.headers ?? {}) };
}

describe('the answers of the API over the sample content', () => {
  let api: Api;

  beforeAll(() => {
    // the sample dist the test setup built once (test/global-setup.ts), read only
    api = createApi(loadDataset(inject('sampleDist')));
  });

  const cases: [string, string, string, number][] = [
    ['list', '/v1/cms/event/', 'limit=1000', 200],
    ['list, expanded', '/v1/cms/event/', 'expand=categories&limit=50', 200],
    ['list, filtered', '/v1/cms/event/', 'title__icontains=a&dfp_points__gte=1&allday=false', 200],
    ['list, bad values', '/v1/cms/event/', 'dfp_points=abc&start__lt=garbage', 400],
    ['list, unknown format', '/v1/cms/event/', 'format=xml', 404],
    ['autocomplete', '/v1/api/autocomplete/', 'q=m&limit=100', 200],
    ['autocomplete, rooms', '/v1/api/autocomplete/', 'm=geo.Room,campus.Room', 200],
    ['autocomplete, unknown model', '/v1/api/autocomplete/', 'm=foo.Bar', 400],
  ];

  it.each(cases)('%s (%s?%s) → %i as declared', (_, path, query, status) => {
    const answer = api({ method: 'GET', path, query, headers: {} });
    expect(answer.status).toBe(status);
    const { validate, headers } = declared(path, status);
    const body = JSON.parse(answer.body.toString());
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    for (const h of headers.filter((h) => h !== 'X-Ignored-Parameters')) expect(answer.headers, h).toHaveProperty(h);
  });

  it('every event, as the detail answers it', () => {
    const list = JSON.parse(api({ method: 'GET', path: '/v1/cms/event/', query: 'limit=1000', headers: {} }).body.toString());
    const { validate } = declared('/v1/cms/event/{id}/', 200);
    for (const e of list.results) {
      const answer = api({ method: 'GET', path: `/v1/cms/event/${e.id}/`, query: '', headers: {} });
      expect(validate(JSON.parse(answer.body.toString())), `${e.id}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('404, 405 and 406 as declared', () => {
    const path = '/v1/cms/event/{id}/';
    const asked = [
      [api({ method: 'GET', path: '/v1/cms/event/999999999/', query: '', headers: {} }), 404],
      [api({ method: 'POST', path: '/v1/cms/event/', query: '', headers: {} }), 405],
      [api({ method: 'GET', path: '/v1/cms/event/', query: '', headers: { accept: 'application/xml' } }), 406],
    ] as const;
    for (const [answer, status] of asked) {
      expect(answer.status).toBe(status);
      const { validate } = declared(path, status);
      expect(validate(JSON.parse(answer.body.toString())), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('a 304 carries the declared headers', () => {
    const first = api({ method: 'GET', path: '/v1/cms/event/', query: '', headers: {} });
    const again = api({ method: 'GET', path: '/v1/cms/event/', query: '', headers: { 'if-none-match': first.headers.ETag } });
    expect(again.status).toBe(304);
    for (const h of ['ETag', 'Cache-Control', 'Vary']) expect(again.headers).toHaveProperty(h);
    expect(Object.keys(doc.components.responses.NotModified.headers)).toEqual(['ETag', 'Cache-Control', 'Vary', 'X-Ignored-Parameters']);
  });
});
