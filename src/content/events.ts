// events/**: one event per Markdown file (front matter + body) or objects in YAML/JSON files.
import type { Event, RelatedMedia } from '../model/types.ts';
import { formatInstant } from '../time/zone.ts';
import type { Fields } from './fields.ts';
import { idOrNaN, indexById, issueAt } from './ids.ts';
import { MAX_BODY_LENGTH, renderMarkdown } from './markdown.ts';
import type { FileIssue, Path } from './problems.ts';
import { parseFile, type Parsed, type Sourced } from './records.ts';
import { RELATED_MEDIA, EVENT } from './shapes.ts';
import { deriveTeaser } from './teaser.ts';

const E = EVENT.fields;
const R = RELATED_MEDIA.fields;

/** Parses one file below events/; `zone` reads timestamps written without an offset. */
export function parseEventFile(file: string, text: string, zone: string): Parsed<Event> {
  return parseFile(file, text, (f, markdown) => readEvent(f, zone, markdown));
}

export function readEvent(f: Fields, zone: string, markdown: string | null): Event {
  // Keys are read in the table's order, which is the order of problems at one position.
  const id = idOrNaN(f.read(E.id));
  const title = f.read(E.title) ?? '';
  const start = f.timestamp(E.start, zone);
  // An all-day event's date-only end is its last day, inclusive: the end of that day (allday is
  // read in its turn below; only `true` itself changes the reading, anything else is refused there).
  const end = f.timestamp(E.end, zone, f.peek(E.allday.key) === true);
  if (start !== undefined && end !== undefined && end < start) {
    f.problem(E.end.key, `end ${formatInstant(end, zone)} is before start ${formatInstant(start, zone)}`);
  }
  let body: string;
  if (markdown === null) {
    body = f.read(E.body).trim();
  } else {
    if (f.has(E.body.key)) f.forbid(E.body.key, 'not allowed in a Markdown file, whose body is the text after the front matter');
    body = renderMarkdown(markdown, (message, line) => f.bodyProblem(message, line));
  }
  if (body.length > MAX_BODY_LENGTH) {
    const message = `the body is ${body.length} characters of HTML; at most ${MAX_BODY_LENGTH} are allowed`;
    if (markdown === null) f.problem('body', message);
    else f.bodyProblem(message);
    body = '';
  }
  const event: Event = {
    id,
    title,
    start: start ?? Number.NaN,
    end: end ?? Number.NaN,
    allday: f.read(E.allday),
    url: f.read(E.url),
    link: f.read(E.link),
    page: f.read(E.page),
    categories: f.read(E.categories),
    header_image: f.read(E.header_image),
    media: f.read(E.media),
    related_media: f.objectList(E.related_media).map((r) => readRelatedMedia(r, zone)),
    organizer: f.read(E.organizer),
    location: f.read(E.location),
    contact: f.read(E.contact),
    email: f.read(E.email),
    attending_fees_info: f.read(E.attending_fees_info),
    teaser: f.read(E.teaser) ?? deriveTeaser(body),
    body,
    register: f.read(E.register),
    attending_fees: f.read(E.attending_fees),
    registration_end: f.timestamp(E.registration_end, zone),
    dfp_points: f.read(E.dfp_points),
    last_modified: f.timestamp(E.last_modified, zone) ?? Number.NaN,
    keywords: f.read(E.keywords),
    description: f.read(E.description),
    language: f.read(E.language),
    gallery: f.read(E.gallery),
    contact_box: f.read(E.contact_box),
    groups: f.read(E.groups),
    related_links: f.read(E.related_links),
  };
  f.rejectUnknown();
  return event;
}


function readRelatedMedia(f: Fields, zone: string): RelatedMedia {
  const related: RelatedMedia = {
    id: idOrNaN(f.read(R.id)),
    media: idOrNaN(f.read(R.media)),
    datetime: f.timestamp(R.datetime, zone) ?? Number.NaN,
    title: f.read(R.title),
    description: f.read(R.description),
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
