import { describe, expect, it } from 'vitest';
import type { Event } from '../model/types.ts';
import { parseEventFile } from './events.ts';
import { lines, load, loadModel } from './test-folder.ts';

const VIE = 'Europe/Vienna';
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

/** A minimal valid event, to which tests add or change keys. */
const base = (id: number, ...more: string[]) =>
  lines(
    `id: ${id}`,
    'title: T',
    'start: 2025-05-12T10:00:00+02:00',
    'end: 2025-05-12T12:00:00+02:00',
    'last_modified: 2025-05-01T00:00:00Z',
    ...more,
  );
const md = (yaml: string, body = 'Text\n') => `---\n${yaml}---\n${body}`;

const REFS = {
  'pages.yaml': lines('- uid: 1', '  pid: 0', '  title: Root', '- uid: 2', '  pid: 1', '  title: Events'),
  'categories.yaml': lines('- {id: 1, title: Courses}', '- {id: 3, title: Talks}'),
  'media.yaml': lines('- id: 10', '  filename: poster.png', '  file: media/poster.png', '- id: 11', '  filename: a.pdf', '  mimetype: application/pdf', '  size: 99'),
  'media/poster.png': PNG,
};

describe('events: a valid folder', () => {
  it('reads Markdown, YAML and JSON events from nested folders, every key', async () => {
    const model = await loadModel({
      ...REFS,
      'events/2025/05/12-vortrag.md': lines(
        '---',
        'id: 7',
        'title: "Vortrag: Neues"',
        'start: 2025-05-12T18:00', // naive: Vienna summer time
        'end: 2025-05-12 20:00:00',
        'allday: false',
        'url: https://example.org/e/7',
        'link: null',
        'page: 2',
        'categories: [3, 1]',
        'header_image: 10',
        'media: [10, 11]',
        'related_media:',
        '  - id: 1',
        '    media: 11',
        '    datetime: 2025-05-01T09:00:00+02:00',
        '    title: Slides',
        '  - {id: 2, media: 10, datetime: 2025-05-02T07:00:00Z}',
        'organizer: Prof. Dr. A',
        'location: Hörsaal 1',
        'contact: B',
        'email: b@example.org',
        'attending_fees_info: 10 EUR',
        'register: true',
        'attending_fees: true',
        'registration_end: 2025-05-10T12:00:00Z',
        'dfp_points: 3',
        'last_modified: 2025-05-01', // a date alone: local midnight
        'keywords: [a, b]',
        'description: {short: x}',
        'language: de',
        'gallery: [1]',
        'contact_box: [{name: c}]',
        'groups: [g]',
        'related_links: [https://example.org]',
        'extra:',
        '  cms_uid: 99',
        '---',
        '# Hello',
        '',
        'Some *text* &amp; more &lt;b&gt;.',
        '',
        '<div class="note">',
        '  raw <b>html</b>',
        '</div>',
        '',
      ),
      'events/nested/deeper/batch.yaml': lines(
        `- ${base(8, 'body: "  <p>Eins &amp; zwei</p>\\n<p>drei</p>  "').trimEnd().replaceAll('\n', '\n  ')}`,
        `- ${base(9, 'teaser: Written teaser').trimEnd().replaceAll('\n', '\n  ')}`,
      ),
      'events/import.json': JSON.stringify({
        id: 3,
        title: 'From JSON',
        start: '2025-01-01T10:00:00+01:00',
        end: '2025-01-01T10:00:00+01:00',
        last_modified: '2025-01-01T00:00:00Z',
        body: '<p>json</p>',
      }),
    });

    expect(model.events.map((e) => e.id)).toEqual([3, 7, 8, 9]);
    const [json, markdown, yaml, explicitTeaser] = model.events;
    expect(markdown).toEqual<Event>({
      id: 7,
      title: 'Vortrag: Neues',
      start: Date.UTC(2025, 4, 12, 16, 0),
      end: Date.UTC(2025, 4, 12, 18, 0),
      allday: false,
      url: 'https://example.org/e/7',
      link: null,
      page: 2,
      categories: [3, 1],
      header_image: 10,
      media: [10, 11],
      related_media: [
        { id: 1, media: 11, datetime: Date.UTC(2025, 4, 1, 7), title: 'Slides', description: null },
        { id: 2, media: 10, datetime: Date.UTC(2025, 4, 2, 7), title: null, description: null },
      ],
      organizer: 'Prof. Dr. A',
      location: 'Hörsaal 1',
      contact: 'B',
      email: 'b@example.org',
      attending_fees_info: '10 EUR',
      teaser: 'Hello Some text & more <b>. raw html',
      body: '<h1>Hello</h1>\n<p>Some <em>text</em> &amp; more &lt;b&gt;.</p>\n<div class="note">\n  raw <b>html</b>\n</div>',
      register: true,
      attending_fees: true,
      registration_end: Date.UTC(2025, 4, 10, 12),
      dfp_points: 3,
      last_modified: Date.UTC(2025, 3, 30, 22),
      keywords: ['a', 'b'],
      description: { short: 'x' },
      language: 'de',
      gallery: [1],
      contact_box: [{ name: 'c' }],
      groups: ['g'],
      related_links: ['https://example.org'],
    });
    // YAML: body is HTML, trimmed; the teaser derives from it.
    expect(yaml.body).toBe('<p>Eins &amp; zwei</p>\n<p>drei</p>');
    expect(yaml.teaser).toBe('Eins & zwei drei');
    // Defaults of every optional key.
    expect(explicitTeaser).toEqual<Event>({
      id: 9,
      title: 'T',
      start: Date.UTC(2025, 4, 12, 8),
      end: Date.UTC(2025, 4, 12, 10),
      allday: false,
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
      teaser: 'Written teaser',
      body: '',
      register: false,
      attending_fees: false,
      registration_end: null,
      dfp_points: null,
      last_modified: Date.UTC(2025, 4, 1),
      keywords: null,
      description: null,
      language: null,
      gallery: [],
      contact_box: [],
      groups: [],
      related_links: [],
    });
    expect(json).toMatchObject({ id: 3, title: 'From JSON', body: '<p>json</p>', teaser: 'json', start: Date.UTC(2025, 0, 1, 9) });
  });

  it('reads naive times in the site time zone', async () => {
    const model = await loadModel({
      'site.yaml': 'timezone: America/New_York\n',
      'events/a.yaml': base(1).replace('start: 2025-05-12T10:00:00+02:00', 'start: 2025-05-12T06:00:00'),
    });
    expect(model.events[0].start).toBe(Date.UTC(2025, 4, 12, 10));
  });
});

describe('events: problems', () => {
  it('reports end before start at `end`', async () => {
    const { lines: out } = await load({
      'events/a.md': md(base(1).replace('end: 2025-05-12T12:00:00+02:00', 'end: 2025-05-12T09:00:00+02:00')),
    });
    expect(out).toEqual(['events/a.md:5:6 end: end 2025-05-12T09:00:00+02:00 is before start 2025-05-12T10:00:00+02:00']);
  });

  it('accepts end equal to start', async () => {
    const { problems } = await load({ 'events/a.yaml': base(1).replace('12:00:00+02:00', '10:00:00+02:00') });
    expect(problems).toEqual([]);
  });

  it('names naive times skipped or repeated by a DST change', async () => {
    const { lines: out } = await load({
      'events/gap.yaml': base(1).replace('start: 2025-05-12T10:00:00+02:00', 'start: 2025-03-30T02:30:00'),
      'events/twice.yaml': base(2, 'registration_end: 2025-10-26 02:30'),
    });
    expect(out).toEqual([
      'events/gap.yaml:3:8 start: 2025-03-30 02:30:00 does not exist in Europe/Vienna (skipped by a daylight-saving change); write it with a UTC offset',
      'events/twice.yaml:6:19 registration_end: 2025-10-26 02:30:00 is ambiguous in Europe/Vienna (repeated by a daylight-saving change); write it with a UTC offset',
    ]);
  });

  it('refuses timestamps outside the years 1…9999 in UTC or in the site zone, at file:line:column', async () => {
    const { lines: out } = await load({
      'events/far.yaml': base(1).replace('end: 2025-05-12T12:00:00+02:00', 'end: 9999-12-31T23:59:59-14:00'),
      'events/zero.yaml': base(2, 'registration_end: 0000-06-01'),
      'events/first.md': md(base(3).replace('last_modified: 2025-05-01T00:00:00Z', 'last_modified: 0001-01-01T00:30')),
      'events/edges.yaml': base(4)
        .replace('start: 2025-05-12T10:00:00+02:00', 'start: 0001-01-01T10:00')
        .replace('end: 2025-05-12T12:00:00+02:00', 'end: 9999-12-31T23:00'),
    });
    const outside = (v: string) => `${v} is outside the years 1 to 9999 (in UTC or in Europe/Vienna), which the API cannot write`;
    expect(out).toEqual([
      `events/far.yaml:4:6 end: ${outside('9999-12-31T23:59:59-14:00')}`,
      `events/first.md:6:16 last_modified: ${outside('0001-01-01T00:30')}`,
      `events/zero.yaml:6:19 registration_end: ${outside('0000-06-01')}`,
    ]);
  });

  it('reports line numbers of the Markdown file, not of its front matter', async () => {
    const { problems } = await load({ 'events/a.md': md(lines('id: 1', 'title: [x]', 'start: soon')) });
    expect(problems).toEqual([
      { file: 'events/a.md', line: 2, column: 1, key: 'end', message: 'required key is missing' },
      { file: 'events/a.md', line: 2, column: 1, key: 'last_modified', message: 'required key is missing' },
      { file: 'events/a.md', line: 3, column: 8, key: 'title', message: 'expected a string, got a list' },
      { file: 'events/a.md', line: 4, column: 8, key: 'start', message: 'expected an ISO 8601 timestamp, got "soon"' },
    ]);
  });

  it('refuses a body key in a Markdown file', async () => {
    const { lines: out } = await load({ 'events/a.md': md(base(1, 'body: <p>x</p>')) });
    expect(out).toEqual(['events/a.md:7:1 body: not allowed in a Markdown file, whose body is the text after the front matter']);
  });

  it('refuses a Markdown file without front matter, or with an unclosed one', async () => {
    const { lines: out } = await load({ 'events/none.md': '# Just text\n', 'events/open.md': '---\nid: 1\n' });
    expect(out).toEqual([
      "events/none.md:1:1 expected front matter: a first line '---', the YAML, then a line '---'",
      "events/open.md:1:1 the front matter opened on line 1 has no closing '---' line",
    ]);
  });

  it('reports wrong types of every kind, naming the expected type', async () => {
    const { lines: out } = await load({
      'events/a.yaml': lines(
        'id: "abc"',
        'title: 5',
        'start: 2025-05-12T10:00:00+02:00',
        'end: 12',
        'allday: "yes"',
        'register: 1',
        'page: 1.5',
        'categories: 3',
        'media: [1, x]',
        'gallery: {}',
        'url: [a]',
        'dfp_points: "3"',
        'related_media: [5]',
        'last_modified: null',
      ),
    });
    expect(out).toEqual([
      'events/a.yaml:1:5 id: expected an integer, got "abc"',
      'events/a.yaml:2:8 title: expected a string, got 5',
      'events/a.yaml:4:6 end: expected an ISO 8601 timestamp, got 12',
      'events/a.yaml:5:9 allday: expected a boolean (true or false), got "yes"',
      'events/a.yaml:6:11 register: expected a boolean (true or false), got 1',
      'events/a.yaml:7:7 page: expected an integer or null, got 1.5',
      'events/a.yaml:8:13 categories: expected a list, got 3',
      'events/a.yaml:9:12 media[1]: expected an integer, got "x"',
      'events/a.yaml:10:10 gallery: expected a list, got a mapping',
      'events/a.yaml:11:6 url: expected a string or null, got a list',
      'events/a.yaml:12:13 dfp_points: expected an integer or null, got "3"',
      'events/a.yaml:13:17 related_media[0]: expected a mapping, got 5',
      'events/a.yaml:14:16 last_modified: expected an ISO 8601 timestamp, got null',
    ]);
  });

  it('reports unknown keys with a hint, and allows anything under extra', async () => {
    const { lines: out } = await load({
      'events/a.yaml': base(1, 'titel: x', 'colour: red', 'extra: {anything: [goes, here]}', 'related_media:', '  - {id: 1, media: 10, datetime: 2025-01-01, extra: 1, note: n}'),
      'media.yaml': lines('id: 10', 'filename: f', 'mimetype: text/plain', 'size: 1'),
    });
    expect(out).toEqual([
      'events/a.yaml:6:1 titel: unknown key (did you mean "title"?)',
      'events/a.yaml:7:1 colour: unknown key',
      'events/a.yaml:10:56 related_media[0].note: unknown key',
    ]);
  });

  it('reports duplicate ids across files in each file, naming the other', async () => {
    const { lines: out } = await load({
      'events/a.md': md(base(5)),
      'events/b/list.yaml': lines('- id: 6', '  title: x', '- id: 5'),
    });
    expect(out).toContain('events/a.md:2:5 id: duplicate event id 5 (also defined in events/b/list.yaml, list item 2)');
    expect(out).toContain('events/b/list.yaml:3:7 id: duplicate event id 5 (also defined in events/a.md)');
  });

  it('reports dangling page, category, header image, media and related media references', async () => {
    const { lines: out } = await load({
      ...REFS,
      'events/a.yaml': base(
        1,
        'page: 4',
        'categories: [1, 2]',
        'header_image: 12',
        'media: [10, 13]',
        'related_media:',
        '  - {id: 1, media: 11, datetime: 2025-01-01T00:00:00Z}',
        '  - {id: 2, media: 14, datetime: 2025-01-01T00:00:00Z}',
      ),
    });
    expect(out).toEqual([
      'events/a.yaml:6:7 page: no page has uid 4 (pages.yaml)',
      'events/a.yaml:7:17 categories[1]: no category has id 2',
      'events/a.yaml:8:15 header_image: no media record has id 12',
      'events/a.yaml:9:13 media[1]: no media record has id 13',
      'events/a.yaml:12:20 related_media[1].media: no media record has id 14',
    ]);
  });

  it('reports missing required keys of related media at the item', async () => {
    const { lines: out } = await load({
      ...REFS,
      'events/a.yaml': base(1, 'related_media:', '  - title: x'),
    });
    expect(out).toEqual([
      'events/a.yaml:7:5 related_media[0].id: required key is missing',
      'events/a.yaml:7:5 related_media[0].media: required key is missing',
      'events/a.yaml:7:5 related_media[0].datetime: required key is missing',
    ]);
  });
});

describe('parseEventFile', () => {
  it('is a pure function of path and text', () => {
    const text = md(base(1), '*x*\n');
    const a = parseEventFile('events/a.md', text, VIE);
    expect(a).toEqual(parseEventFile('events/a.md', text, VIE));
    expect(a.records).toHaveLength(1);
    expect(a.records[0]).toMatchObject({ file: 'events/a.md', item: null, value: { id: 1, body: '<p><em>x</em></p>', teaser: 'x' } });
  });
});

describe("events: an all-day event's date-only end", () => {
  const evt = (start: string, end: string, allday: string) =>
    lines('id: 1', 'title: T', `start: ${start}`, `end: ${end}`, `allday: ${allday}`, 'last_modified: 2025-05-01T00:00:00Z');
  const endOf = async (start: string, end: string, allday: string, zone = VIE) => {
    const model = await loadModel({ 'site.yaml': `timezone: ${zone}\n`, 'events/e.yaml': evt(start, end, allday) });
    return new Date(model.events[0].end).toISOString();
  };

  it('is the last second of that local day', async () => {
    expect(await endOf('2026-07-06', '2026-07-10', 'true')).toBe('2026-07-10T21:59:59.000Z');
    expect(await endOf('2026-07-06', '2026-7-6', 'true')).toBe('2026-07-06T21:59:59.000Z');
    // on a day that ends in another offset than it began (Vienna's autumn change)
    expect(await endOf('2025-10-26', '2025-10-26', 'true')).toBe('2025-10-26T22:59:59.000Z');
    expect(await endOf('2026-07-06', '2026-07-10', 'true', 'America/New_York')).toBe('2026-07-11T03:59:59.000Z');
  });

  it('is local midnight with a timestamp end, or when the event is not all-day', async () => {
    expect(await endOf('2026-07-06', '2026-07-10T00:00', 'true')).toBe('2026-07-09T22:00:00.000Z');
    expect(await endOf('2026-07-06', '2026-07-10', 'false')).toBe('2026-07-09T22:00:00.000Z');
  });

  it('is read as written when allday itself is refused, and both problems are named', async () => {
    const { lines: out } = await load({ 'events/e.yaml': evt('2026-07-10T12:00', '2026-07-10', 'yes') });
    expect(out).toEqual([
      'events/e.yaml:4:6 end: end 2026-07-10T00:00:00+02:00 is before start 2026-07-10T12:00:00+02:00',
      'events/e.yaml:5:9 allday: expected a boolean (true or false), got "yes"',
    ]);
  });
});

describe('events: an id defined in many files', () => {
  it('is reported in each, naming three of the others and how many more', async () => {
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`events/${i}.md`, md(base(9))]));
    const { lines: out } = await load(files);
    expect(out).toHaveLength(6);
    expect(out[0]).toBe('events/0.md:2:5 id: duplicate event id 9 (also defined in events/1.md; events/2.md; events/3.md; and 2 more)');
    expect(out[5]).toBe('events/5.md:2:5 id: duplicate event id 9 (also defined in events/0.md; events/1.md; events/2.md; and 2 more)');
  });
});

describe('events: values the type allows but no event can mean', () => {
  it('refuses an empty or blank title, a negative id, a category listed twice and an e-mail address of more than one line', async () => {
    const { lines: out } = await load({
      ...REFS,
      'events/a.yaml': base(-1, 'categories: [1, 3, 1, 1]', 'email: "office@example.org\\r\\nBcc: x@example.org"').replace('title: T', 'title: ""'),
      'events/b.yaml': base(2).replace('title: T', 'title: " \\t"'),
    });
    expect(out).toEqual([
      'events/a.yaml:1:5 id: expected an id of 0 or more, got -1',
      'events/a.yaml:2:8 title: expected text, got ""',
      'events/a.yaml:6:20 categories[2]: category 1 is listed again (first as categories[0]); list each once',
      'events/a.yaml:6:23 categories[3]: category 1 is listed again (first as categories[0]); list each once',
      'events/a.yaml:7:8 email: expected one line, got "office@example.org\\r\\nBcc: x@example.org" (a line break or another control character)',
      'events/b.yaml:2:8 title: expected text, got " \\t"',
    ]);
  });

  it('reads id 0, a title of one visible character and a long list of distinct categories', async () => {
    const categories = Array.from({ length: 40 }, (_, i) => `- {id: ${i}, title: C${i}}`);
    const ids = Array.from({ length: 40 }, (_, i) => 39 - i);
    const model = await loadModel({ 'categories.yaml': lines(...categories), 'events/a.md': md(base(0, `categories: [${ids.join(', ')}]`).replace('title: T', 'title: " é"')) });
    expect(model.events[0]).toMatchObject({ id: 0, title: ' é', categories: ids });
    // the long list finds its repetitions too
    const { lines: out } = await load({ 'categories.yaml': lines(...categories), 'events/a.md': md(base(1, `categories: [${[...ids, 7].join(', ')}]`)) });
    expect(out).toEqual([expect.stringMatching(/^events\/a\.md:7:\d+ categories\[40\]: category 7 is listed again \(first as categories\[32\]\)/)]);
  });

  it('refuses empty names and negative ids in the other kinds of record too', async () => {
    const { lines: out } = await load({
      'pages.yaml': lines('- {uid: -2, pid: 0, title: ""}'),
      'categories.yaml': lines('- {id: -1, title: "  "}'),
      'media.yaml': lines('- {id: -4, filename: "", mimetype: application/pdf, size: 1}'),
      'directory/d.yaml': lines('- {model: campus.Person, id: -1, last_name: ""}', '- {model: geo.Room, id: 1, name: ""}', '- {model: structure.Organization, id: 2, name: " "}'),
    });
    expect(out).toEqual([
      'categories.yaml:1:8 id: expected an id of 0 or more, got -1',
      'categories.yaml:1:19 title: expected text, got "  "',
      'directory/d.yaml:1:30 id: expected an id of 0 or more, got -1',
      'directory/d.yaml:1:45 last_name: expected text, got ""',
      'directory/d.yaml:2:34 name: expected text, got ""',
      'directory/d.yaml:3:48 name: expected text, got " "',
      'media.yaml:1:8 id: expected an id of 0 or more, got -4',
      'media.yaml:1:22 filename: expected text, got ""',
      'pages.yaml:1:9 uid: expected an id of 0 or more, got -2',
      'pages.yaml:1:28 title: expected text, got ""',
    ]);
  });
});
