// The content rules of content-format.md, once: every key of every kind of content object, its
// type, whether it is required, its default and limits, and what it means. The readers
// (site.ts, pages.ts, …) validate with these rules and the JSON Schemas in dist/schemas are
// written from them (docs/content-schemas.ts). Checks that span keys or files stay in the
// readers: end after start, page_size within max_page_size, ids that exist.
import { DIRECTORY_MODELS, type DirectoryKind, type Site } from '../model/types.ts';
import {
  anyValue, bool, int, intList, intOrNull, list, objectList, shape, string, stringList, stringOrNull, timestamp, timestampOrNull,
} from './rules.ts';

export const DEFAULT_SITE: Readonly<Site> = {
  base_url: 'http://localhost:8000',
  timezone: 'Europe/Vienna',
  page_size: 20,
  max_page_size: 1000,
  title: null,
};

const POSITIVE = { value: 1, expected: 'a positive integer' };
/** Ids are 0 or more: a negative one has no media URL a static host's rules match (`/cms/media/[0-9]+/`). */
const ID = { minimum: { value: 0, expected: 'an id of 0 or more' } };
/** Titles and names: a record the API lists by an empty one is a mistake, as is a required key left out. */
const TEXT = { nonEmpty: true };

export const SITE = shape('site', 'Site-wide settings; every key is optional.', {
  base_url: string('Absolute origin and optional path prefix, without query or fragment; used for links and media URLs.', {
    schemaPattern: '^https?://[^?#]+$',
    default: DEFAULT_SITE.base_url,
  }),
  timezone: string('IANA time zone in which timestamps are written and read.', { default: DEFAULT_SITE.timezone, examples: ['Europe/Vienna'] }),
  page_size: int('Default `limit`; at most max_page_size.', { minimum: POSITIVE, default: DEFAULT_SITE.page_size }),
  max_page_size: int('Largest `limit` honoured; larger values are clamped.', { minimum: POSITIVE, default: DEFAULT_SITE.max_page_size }),
  title: stringOrNull('Name of the site: the calendar name (X-WR-CALNAME) of events.ics and ?format=ics. Default: `Events (<host of base_url>)`.'),
});

export const PAGE = shape('page', 'A node of the page tree.', {
  uid: int('Unique node id (0 is taken: a pid of 0 marks a root).', {
    ...ID,
    excluded: { value: 0, message: 'uid 0 is taken: a pid of 0 marks a root' },
  }),
  pid: int('Parent uid; 0 for a root.', { default: 0 }),
  title: string('Node title.', TEXT),
  is_siteroot: bool('Whether the node is the root of a site.', false),
  domains: stringList('Host names of the site.'),
  uri: stringOrNull('Absolute URI of the site root.'),
});

export const CATEGORY = shape(
  'category',
  'A category. Every other key is kept and appears with ?expand=categories.',
  { id: int('Unique category id.', ID), title: string('Category title.', TEXT) },
  true,
);

export const MEDIA = shape('media', 'A media record. With `file`, size and mimetype are read from that file; without it they are required.', {
  id: int('Unique media id.', ID),
  filename: string('File name.', TEXT),
  original: stringOrNull('Address of the original file on the external site.'),
  mimetype: string('MIME type (must agree with `file` when both are given).', { requiredUnless: 'file' }),
  size: int('Size in bytes (must agree with `file` when both are given).', {
    minimum: { value: 0, expected: 'a byte count (0 or more)' },
    requiredUnless: 'file',
  }),
  file: stringOrNull('Path of the file, relative to the content folder.'),
});

export const RELATED_MEDIA = shape('related_media', 'An attached file.', {
  id: int('Id of the attachment.', ID),
  media: int('Media id.'),
  datetime: timestamp('Date of the attachment.'),
  title: stringOrNull('Title.'),
  description: stringOrNull('Description.'),
});

/** An event's keys; a Markdown file has no `body` key, its body is the text after the front matter. */
export const EVENT = shape('event', 'An event in a YAML or JSON file.', {
  id: int('Unique event id.', ID),
  title: string('Title.', TEXT),
  start: timestamp('Begin.'),
  end: timestamp('End; not before start.'),
  body: string('Full description, HTML; trimmed.', { default: '' }),
  allday: bool('All-day event.', false),
  url: stringOrNull('URL of the original location of the event.'),
  link: stringOrNull('URL of an external site related to the event.'),
  page: intOrNull('uid of the page-tree node the event lives under (pages.yaml).'),
  categories: intList('Category ids (categories.yaml), each once.', { unique: { what: 'category' } }),
  header_image: intOrNull('Media id of the header image.'),
  media: intList('Media ids.'),
  related_media: objectList('Attached files.', RELATED_MEDIA),
  organizer: stringOrNull('Name of the person responsible.'),
  location: stringOrNull('Where the event takes place.'),
  contact: stringOrNull('Person or party to contact.'),
  email: stringOrNull('E-mail address of the contact; one line.', { oneLine: true }),
  attending_fees_info: stringOrNull('Text detailing the fees.'),
  // Absent, it is derived from the body, hence no default a schema could name.
  teaser: string('Plain-text summary; derived from the body when absent.', { default: null }),
  register: bool('Registration required.', false),
  attending_fees: bool('Attendance requires a fee.', false),
  registration_end: timestampOrNull('Deadline for registration.'),
  dfp_points: intOrNull('Continuing-education points.'),
  last_modified: timestamp('Last modification.'),
  keywords: anyValue('Keywords: any value, passed through.'),
  description: anyValue('Description metadata: any value, passed through.'),
  language: anyValue('Language: any value, passed through.'),
  gallery: list('Gallery: passed through.'),
  contact_box: list('Contact boxes: passed through.'),
  groups: list('Groups: passed through.'),
  related_links: list('Related links: passed through.'),
});

/** The keys every directory object has; the rest depend on the kind its model belongs to. */
export const DIRECTORY_OBJECT = shape('object', 'A directory object; its keys depend on `model`.', {
  model: string('The model.', { oneOf: DIRECTORY_MODELS }),
  id: int('Id, unique per model.', ID),
  presentation: stringOrNull('Display text; computed from the other keys when absent.'),
  keywords: stringList('Extra search terms, never shown.'),
});

export const PERSON = shape('person', 'A person or student.', {
  title: stringOrNull('Prefix such as `Univ.-Prof. Dr.`.'),
  first_name: stringOrNull('First name.'),
  last_name: string('Last name.', TEXT),
  title_after: stringOrNull('Suffix such as `PhD`.'),
});

export const ROOM = shape('room', 'A room.', {
  name: string('Name.', TEXT),
  code: stringOrNull('Room code.'),
  level_id: intOrNull('Level id.'),
  room_id: intOrNull('Room id.'),
});

export const ORGANIZATION = shape('organization', 'An organization.', { name: string('Name.', TEXT) });

export const DIRECTORY_KINDS: Readonly<Record<DirectoryKind, typeof PERSON | typeof ROOM | typeof ORGANIZATION>> = {
  person: PERSON,
  room: ROOM,
  organization: ORGANIZATION,
};
