// events/**: one event per Markdown file (front matter + body) or objects in YAML/JSON files.
import type { Event, RelatedMedia } from '../model/types.ts';
import { formatInstant } from '../time/zone.ts';
import type { Fields } from './fields.ts';
import { idOrNaN, indexById, issueAt } from './ids.ts';
import { MAX_BODY_LENGTH, renderMarkdown } from './markdown.ts';
import type { FileIssue, Path } from './problems.ts';
import { parseFile, type Parsed, type Sourced } from './records.ts';
import { deriveTeaser } from './teaser.ts';

/** Parses one file below events/; `zone` reads timestamps written without an offset. */
export function parseEventFile(file: string, text: string, zone: string): Parsed<Event> {
  return parseFile(file, text, (f, markdown) => readEvent(f, zone, markdown));
}

export function readEvent(f: Fields, zone: string, markdown: string | null): Event {
  // Keys are read in the table's order, which is the order of problems at one position.
  const id = idOrNaN(f.int('id'));
  const title = f.string('title') ?? '';
  const start = f.timestamp('start', zone);
  const end = f.timestamp('end', zone);
  if (start !== undefined && end !== undefined && end < start) {
    f.problem('end', `end ${formatInstant(end, zone)} is before start ${formatInstant(start, zone)}`);
  }
  let body: string;
  if (markdown === null) {
    body = f.string('body', '').trim();
  } else {
    if (f.has('body')) f.forbid('body', 'not allowed in a Markdown file, whose body is the text after the front matter');
    body = renderMarkdown(markdown);
  }
  if (body.length > MAX_BODY_LENGTH) {
    f.problem('body', `the body is ${body.length} characters of HTML; at most ${MAX_BODY_LENGTH} are allowed`);
    body = '';
  }
  const event: Event = {
    id,
    title,
    start: start ?? Number.NaN,
    end: end ?? Number.NaN,
    allday: f.bool('allday', false),
    url: f.stringOrNull('url'),
    link: f.stringOrNull('link'),
    page: f.intOrNull('page'),
    categories: f.intList('categories'),
    header_image: f.intOrNull('header_image'),
    media: f.intList('media'),
    related_media: f.objectList('related_media').map((r) => readRelatedMedia(r, zone)),
    organizer: f.stringOrNull('organizer'),
    location: f.stringOrNull('location'),
    contact: f.stringOrNull('contact'),
    email: f.stringOrNull('email'),
    attending_fees_info: f.stringOrNull('attending_fees_info'),
    teaser: f.string('teaser', null) ?? deriveTeaser(body),
    body,
    register: f.bool('register', false),
    attending_fees: f.bool('attending_fees', false),
    registration_end: f.timestampOrNull('registration_end', zone),
    dfp_points: f.intOrNull('dfp_points'),
    last_modified: f.timestamp('last_modified', zone) ?? Number.NaN,
    keywords: f.any('keywords', null),
    description: f.any('description', null),
    language: f.any('language', null),
    gallery: f.list('gallery'),
    contact_box: f.list('contact_box'),
    groups: f.list('groups'),
    related_links: f.list('related_links'),
  };
  f.rejectUnknown();
  return event;
}

function readRelatedMedia(f: Fields, zone: string): RelatedMedia {
  const related: RelatedMedia = {
    id: idOrNaN(f.int('id')),
    media: idOrNaN(f.int('media')),
    datetime: f.timestamp('datetime', zone) ?? Number.NaN,
    title: f.stringOrNull('title'),
    description: f.stringOrNull('description'),
  };
  f.rejectUnknown();
  return related;
}

export interface Known {
  pages: ReadonlyMap<number, unknown>;
  categories: ReadonlyMap<number, unknown>;
  media: ReadonlyMap<number, unknown>;
}

/** Unique ids, and references that name an existing page, category and media record. */
export function checkEvents(records: readonly Sourced<Event>[], known: Known, out: FileIssue[]): void {
  indexById(records, (e) => e.id, 'event id', 'id', out);
  for (const r of records) {
    const e = r.value;
    const dangling = (key: Path, what: string, id: number) => out.push(issueAt(r, key, `no ${what} has id ${id}`));
    if (e.page !== null && !known.pages.has(e.page)) {
      out.push(issueAt(r, ['page'], `no page has uid ${e.page} (pages.yaml)`));
    }
    e.categories.forEach((id, i) => known.categories.has(id) || dangling(['categories', i], 'category', id));
    if (e.header_image !== null && !known.media.has(e.header_image)) dangling(['header_image'], 'media record', e.header_image);
    e.media.forEach((id, i) => known.media.has(id) || dangling(['media', i], 'media record', id));
    e.related_media.forEach((m, i) => {
      if (!Number.isNaN(m.media) && !known.media.has(m.media)) dangling(['related_media', i, 'media'], 'media record', m.media);
    });
  }
}
