// JSON Schemas (draft 2020-12) of the content files (content-format.md), for editors: with
// `# yaml-language-server: $schema=../dist/schemas/event.schema.json` a typo is marked while
// typing instead of at the next build. Each schema is self-contained (no cross-file refs) so an
// editor needs only the one file. They check what one file alone can show; references between
// files (page, category and media ids) and the site's time zone remain the build's to check.
import { DIRECTORY_MODELS, directoryKind, type DirectoryKind } from '../model/types.ts';
import type { Schema } from './openapi-schemas.ts';
import { TIMESTAMP_EXAMPLES, TIMESTAMP_PATTERN } from './timestamp-pattern.ts';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const EXTRA: Schema = { description: 'Kept and ignored: anything may go here.' };

const str = (description: string, more: Schema = {}): Schema => ({ type: 'string', description, ...more });
const strOrNull = (description: string): Schema => ({ type: ['string', 'null'], description, default: null });
const int = (description: string, more: Schema = {}): Schema => ({ type: 'integer', description, ...more });
const intOrNull = (description: string): Schema => ({ type: ['integer', 'null'], description, default: null });
const bool = (description: string, fallback: boolean): Schema => ({ type: 'boolean', description, default: fallback });
const listOf = (items: Schema, description: string): Schema => ({ type: 'array', items, description, default: [] });
const timestamp = (description: string): Schema => ({
  type: 'string',
  pattern: TIMESTAMP_PATTERN,
  description: `${description} ISO 8601: with an offset, with Z, or without one for local time in the site's time zone.`,
  examples: TIMESTAMP_EXAMPLES,
});

/** An object of exactly these keys (and `extra`). */
function record(description: string, properties: Record<string, Schema>, required: string[], more: Schema = {}): Schema {
  return { type: 'object', description, properties: { ...properties, extra: EXTRA }, required, additionalProperties: false, ...more };
}

/** A file schema: one object of `$defs[name]`, a list of them, or nothing (an empty file). */
function oneOrMany(file: string, title: string, name: string, defs: Record<string, Schema>): Schema {
  const item = { $ref: `#/$defs/${name}` };
  return {
    $schema: DIALECT,
    $id: file,
    title,
    oneOf: [item, { type: 'array', items: item }, { type: 'null' }],
    $defs: defs,
  };
}

function siteSchema(): Schema {
  return {
    $schema: DIALECT,
    $id: 'site.schema.json',
    title: 'aula site.yaml',
    type: ['object', 'null'],
    description: 'Site-wide settings; every key is optional.',
    properties: {
      base_url: str('Absolute origin and optional path prefix, without query or fragment; used for links and media URLs.', {
        pattern: '^https?://[^?#]+$',
        default: 'http://localhost:8000',
      }),
      timezone: str('IANA time zone in which timestamps are written and read.', { default: 'Europe/Vienna', examples: ['Europe/Vienna'] }),
      page_size: int('Default `limit`; at most max_page_size.', { minimum: 1, default: 20 }),
      max_page_size: int('Largest `limit` honoured; larger values are clamped.', { minimum: 1, default: 1000 }),
      extra: EXTRA,
    },
    additionalProperties: false,
  };
}

function pageDef(): Schema {
  return record(
    'A node of the page tree.',
    {
      uid: int('Unique node id (0 is taken: a pid of 0 marks a root).', { not: { const: 0 } }),
      pid: int('Parent uid; 0 for a root.', { default: 0 }),
      title: str('Node title.'),
      is_siteroot: bool('Whether the node is the root of a site.', false),
      domains: listOf({ type: 'string' }, 'Host names of the site.'),
      uri: strOrNull('Absolute URI of the site root.'),
    },
    ['uid', 'title'],
  );
}

function categoryDef(): Schema {
  return {
    type: 'object',
    description: 'A category. Every other key is kept and appears with ?expand=categories.',
    properties: { id: int('Unique category id.'), title: str('Category title.'), extra: EXTRA },
    required: ['id', 'title'],
    additionalProperties: true,
  };
}

function mediaDef(): Schema {
  return record(
    'A media record. With `file`, size and mimetype are read from that file; without it they are required.',
    {
      id: int('Unique media id.'),
      filename: str('File name.'),
      original: strOrNull('Address of the original file on the external site.'),
      mimetype: str('MIME type (must agree with `file` when both are given).'),
      size: int('Size in bytes (must agree with `file` when both are given).', { minimum: 0 }),
      file: strOrNull('Path of the file, relative to the content folder.'),
    },
    ['id', 'filename'],
    { if: { required: ['file'], properties: { file: { type: 'string' } } }, else: { required: ['mimetype', 'size'] } },
  );
}

function relatedMediaDef(): Schema {
  return record(
    'An attached file.',
    {
      id: int('Id of the attachment.'),
      media: int('Media id.'),
      datetime: timestamp('Date of the attachment.'),
      title: strOrNull('Title.'),
      description: strOrNull('Description.'),
    },
    ['id', 'media', 'datetime'],
  );
}

/** The keys of an event; `body` only where the file has no Markdown body of its own. */
function eventDef(withBody: boolean): Schema {
  const anyValue = (what: string): Schema => ({ description: `${what}: any value, passed through.`, default: null });
  const passed = (what: string): Schema => ({ type: 'array', description: `${what}: passed through.`, default: [] });
  const properties: Record<string, Schema> = {
    id: int('Unique event id.'),
    title: str('Title.'),
    start: timestamp('Begin.'),
    end: timestamp('End; not before start.'),
    ...(withBody ? { body: str('Full description, HTML; trimmed.', { default: '' }) } : {}),
    allday: bool('All-day event.', false),
    url: strOrNull('URL of the original location of the event.'),
    link: strOrNull('URL of an external site related to the event.'),
    page: intOrNull('uid of the page-tree node the event lives under (pages.yaml).'),
    categories: listOf({ type: 'integer' }, 'Category ids (categories.yaml).'),
    header_image: intOrNull('Media id of the header image.'),
    media: listOf({ type: 'integer' }, 'Media ids.'),
    related_media: listOf({ $ref: '#/$defs/related_media' }, 'Attached files.'),
    organizer: strOrNull('Name of the person responsible.'),
    location: strOrNull('Where the event takes place.'),
    contact: strOrNull('Person or party to contact.'),
    email: strOrNull('E-mail address of the contact.'),
    attending_fees_info: strOrNull('Text detailing the fees.'),
    teaser: str('Plain-text summary; derived from the body when absent.'),
    register: bool('Registration required.', false),
    attending_fees: bool('Attendance requires a fee.', false),
    registration_end: { ...timestamp('Deadline for registration.'), type: ['string', 'null'], default: null },
    dfp_points: intOrNull('Continuing-education points.'),
    last_modified: timestamp('Last modification.'),
    keywords: anyValue('Keywords'),
    description: anyValue('Description metadata'),
    language: anyValue('Language'),
    gallery: passed('Gallery'),
    contact_box: passed('Contact boxes'),
    groups: passed('Groups'),
    related_links: passed('Related links'),
  };
  const where = withBody ? 'in a YAML or JSON file' : 'in the front matter of a Markdown file (the body is the text after it)';
  return record(`An event ${where}.`, properties, ['id', 'title', 'start', 'end', 'last_modified']);
}

const KIND_MODELS = (kind: DirectoryKind) => DIRECTORY_MODELS.filter((m) => directoryKind(m) === kind);

function directoryDefs(): Record<string, Schema> {
  const common = (kind: DirectoryKind): Record<string, Schema> => ({
    model: { enum: KIND_MODELS(kind), description: 'The model.' },
    id: int('Id, unique per model.'),
    presentation: strOrNull('Display text; computed from the other keys when absent.'),
    keywords: listOf({ type: 'string' }, 'Extra search terms, never shown.'),
  });
  const kinds: Record<DirectoryKind, [string, Record<string, Schema>, string[]]> = {
    person: [
      'A person or student.',
      {
        title: strOrNull('Prefix such as `Univ.-Prof. Dr.`.'),
        first_name: strOrNull('First name.'),
        last_name: str('Last name.'),
        title_after: strOrNull('Suffix such as `PhD`.'),
      },
      ['last_name'],
    ],
    room: [
      'A room.',
      { name: str('Name.'), code: strOrNull('Room code.'), level_id: intOrNull('Level id.'), room_id: intOrNull('Room id.') },
      ['name'],
    ],
    organization: ['An organization.', { name: str('Name.') }, ['name']],
  };
  const defs: Record<string, Schema> = {};
  for (const [kind, [description, keys, required]] of Object.entries(kinds) as [DirectoryKind, (typeof kinds)[DirectoryKind]][]) {
    defs[kind] = record(description, { ...common(kind), ...keys }, ['model', 'id', ...required]);
  }
  // Dispatch on `model` with if/then, so a mistake is reported against its own kind only.
  defs.object = {
    type: 'object',
    description: 'A directory object; its keys depend on `model`.',
    properties: { model: { enum: [...DIRECTORY_MODELS], description: 'The model.' } },
    required: ['model'],
    allOf: (Object.keys(kinds) as DirectoryKind[]).map((kind) => ({
      if: { properties: { model: { enum: KIND_MODELS(kind) } }, required: ['model'] },
      then: { $ref: `#/$defs/${kind}` },
    })),
  };
  return defs;
}

/** Schema file name → schema. */
export function contentSchemas(): Record<string, object> {
  const frontMatter = {
    $schema: DIALECT,
    $id: 'event-front-matter.schema.json',
    title: 'aula event (Markdown front matter)',
    $ref: '#/$defs/event',
    $defs: { event: eventDef(false), related_media: relatedMediaDef() },
  };
  return {
    'site.schema.json': siteSchema(),
    'pages.schema.json': oneOrMany('pages.schema.json', 'aula pages.yaml', 'page', { page: pageDef() }),
    'categories.schema.json': oneOrMany('categories.schema.json', 'aula categories.yaml', 'category', { category: categoryDef() }),
    'media.schema.json': oneOrMany('media.schema.json', 'aula media records', 'media', { media: mediaDef() }),
    'event.schema.json': oneOrMany('event.schema.json', 'aula events (YAML or JSON)', 'event', {
      event: eventDef(true),
      related_media: relatedMediaDef(),
    }),
    'event-front-matter.schema.json': frontMatter,
    'directory.schema.json': oneOrMany('directory.schema.json', 'aula directory objects', 'object', directoryDefs()),
  };
}
