// The component schemas of the OpenAPI document: the resources of interface.md §2 and the
// envelopes and error bodies around them. The Event schema is keyed by EVENT_FIELDS through a
// Record, so a field added to the renderer does not compile until it is documented here.
import { CTYPES } from '../../model/directory-models.ts';
import { EVENT_FIELDS, type EventField } from '../../model/event-fields.ts';

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const nullableRef = (name: string, description: string): Schema => ({ description, anyOf: [ref(name), { type: 'null' }] });
const text = (description: string): Schema => ({ type: 'string', description });
const integer = (description: string): Schema => ({ type: 'integer', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const list = (items: Schema, description: string): Schema => ({ type: 'array', items, description });
/** Lists the original service only ever showed empty: passed through from the content as written. */
const passedList = (description: string): Schema => list({}, `${description} Passed through from the content (usually empty).`);
const timestamp = (description: string): Schema => ({
  type: 'string',
  format: 'date-time',
  description: `${description} ISO 8601 in the site's time zone with that instant's UTC offset (\`Z\` for UTC).`,
  examples: ['2025-05-12T18:00:00+02:00'],
});
/** Values the content passes through unchanged; the original service only showed null. */
const anyValue = (description: string): Schema => ({ description: `${description} Any JSON value from the content; null when not given.` });

function object(properties: Record<string, Schema>, description: string, extra: Schema = {}): Schema {
  return { type: 'object', description, properties, required: Object.keys(properties), additionalProperties: false, ...extra };
}

const EVENT_PROPERTIES: Record<EventField, Schema> = {
  id: integer('Primary key.'),
  url: nullable(text('URL of the original location of the event object.')),
  media: list(ref('MediaFile'), 'Associated media files.'),
  gallery: passedList('Gallery items.'),
  contact_box: passedList('Contact boxes.'),
  breadcrumb: list(ref('BreadcrumbNode'), 'Page-tree nodes from the node of the event up to the root.'),
  categories: list(
    { oneOf: [{ type: 'integer' }, ref('Category')] },
    'Category ids; with `expand=categories` the Category objects instead.',
  ),
  groups: passedList('Groups.'),
  link: nullable(text('URL of an external site related to the event.')),
  header_image: nullableRef('MediaFile', 'The header image, or null.'),
  related_links: passedList('Related links.'),
  related_media: list(ref('RelatedMedia'), 'Attached files.'),
  start: timestamp('Begin of the event.'),
  end: timestamp('End of the event (never before start).'),
  allday: bool('All-day event.'),
  title: text('Title of the event.'),
  organizer: nullable(text('Name of the person responsible for the event.')),
  location: nullable(text('Where the event takes place.')),
  teaser: text('Short plain-text summary of the description.'),
  body: text('Full description, HTML.'),
  keywords: anyValue('Keywords.'),
  description: anyValue('Description metadata.'),
  register: bool('Registration required for attendance.'),
  registration_end: nullable(timestamp('Deadline for registration, or null.')),
  attending_fees: bool('Attendance requires a fee.'),
  attending_fees_info: nullable(text('Text detailing the fees.')),
  dfp_points: nullable(integer('Continuing-education points credited for attendance.')),
  contact: nullable(text('Person or party to contact about the event.')),
  email: nullable(text('E-mail address of the contact.')),
  last_modified: timestamp('Date and time of the last modification.'),
  language: anyValue('Language.'),
};

/** The component schemas, by name. */
export function componentSchemas(): Record<string, Schema> {
  // Spread in EVENT_FIELDS order: the order of the table in interface.md §2.1 and of the JSON.
  const eventProperties = Object.fromEntries(EVENT_FIELDS.map((f) => [f, EVENT_PROPERTIES[f]]));
  return {
    Event: object(
      eventProperties,
      'An event (interface.md §2.1). Keys in this order. With `fields` or `omit` only the selected keys are present.',
    ),
    BreadcrumbNode: object(
      {
        uid: integer('Page-tree node id.'),
        pid: integer('Parent node id; 0 for a root node.'),
        title: text('Node title.'),
        is_siteroot: bool('Whether the node is the root of a site.'),
        domains: list({ type: 'string' }, 'Host names of the site; empty for non-root nodes.'),
        uri: nullable(text('Absolute URI of the site root; null for non-root nodes.')),
      },
      'A node of the page tree (interface.md §2.2).',
    ),
    MediaFile: object(
      {
        url: { type: 'string', format: 'uri', description: 'The media record on this service: `{base_url}/cms/media/<id>/`.' },
        original: nullable(text('Address of the original file on the external site.')),
        mimetype: text('MIME type of the file.'),
        filename: text('File name.'),
        size: { type: 'integer', minimum: 0, description: 'Size of the file in bytes.' },
      },
      'A media file (interface.md §2.3).',
    ),
    RelatedMedia: object(
      {
        id: integer('Id of the attachment.'),
        media: ref('MediaFile'),
        datetime: timestamp('Date of the attachment.'),
        title: nullable(text('Title.')),
        description: nullable(text('Description.')),
      },
      'An attached file (interface.md §2.4).',
    ),
    Category: {
      type: 'object',
      description: 'A category as `expand=categories` shows it: `id`, `title`, then every other key of categories.yaml.',
      properties: { id: integer('Category id.'), title: text('Category title.') },
      required: ['id', 'title'],
      additionalProperties: true,
    },
    AutocompleteSuggestion: object(
      {
        id: integer('Id of the suggested object.'),
        ctype: { type: 'string', enum: [...CTYPES], description: 'The model in lower case, `<app>.<model>`.' },
        presentation: { type: 'string', pattern: '\\n$', description: 'Display text, ending with a line feed.' },
        level_id: nullable(integer("The room's level id; null for everything but rooms.")),
        room_id: nullable(integer("The room's room id; null for everything but rooms.")),
      },
      'A suggestion of the autocomplete (interface.md §2.5).',
    ),
    EventPage: page('Event', 'A page of the event list.'),
    AutocompletePage: page('AutocompleteSuggestion', 'A page of autocomplete suggestions.'),
    Detail: object({ detail: text('What went wrong.') }, 'The error body of 404, 405 and 406.', {
      examples: [{ detail: 'Not found.' }],
    }),
    ParameterErrors: {
      type: 'object',
      description:
        "django-filter's error body: each invalid query parameter with its messages, in the order the parameters are declared.",
      additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 },
      minProperties: 1,
      examples: [{ dfp_points: ['Enter a number.'] }, { start__lt: ['Enter a valid date/time.'] }],
    },
  };
}

function page(item: string, description: string): Schema {
  const link = (which: string) =>
    nullable({
      type: 'string',
      format: 'uri',
      description: `Absolute URL of the ${which} page (with \`limit\`, \`offset\` and every other parameter of the request), or null.`,
    });
  return object(
    {
      count: { type: 'integer', minimum: 0, description: 'Number of matching items across all pages.' },
      next: link('next'),
      previous: link('previous'),
      results: list(ref(item), 'The items of this page.'),
    },
    `${description} (interface.md §4.1)`,
  );
}
