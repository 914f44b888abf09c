// JSON Schemas (draft 2020-12) of the content files (content-format.md), for editors: with
// `# yaml-language-server: $schema=../dist/schemas/event.schema.json` a typo is marked while
// typing instead of at the next build. They are written from the rules the loader validates
// with (content/shapes.ts), so the two cannot disagree on a key. Each schema is self-contained
// (no cross-file refs) so an editor needs only the one file. They check what one file alone can
// show; references between files (page, category and media ids) and the site's time zone remain
// the build's to check.
import type { AnyRule, Shape } from '../content/rules.ts';
import { CATEGORY, DIRECTORY_KINDS, DIRECTORY_OBJECT, EVENT, MEDIA, PAGE, RELATED_MEDIA, SITE } from '../content/shapes.ts';
import { DIRECTORY_MODELS, directoryKind, type DirectoryKind } from '../model/types.ts';
import type { Schema } from '../api/openapi/schemas.ts';
import { TIMESTAMP_EXAMPLES, TIMESTAMP_PATTERN } from '../time/timestamp-pattern.ts';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const EXTRA: Schema = { description: 'Kept and ignored: anything may go here.' };

/** A character other than white space (JSON Schema's patterns are not anchored). */
const NON_EMPTY = '\\S';
/** No line break nor other control character. */
const ONE_LINE = '^[^\\u0000-\\u001f\\u007f]*$';

const TIMESTAMP_FORMAT = "ISO 8601: with an offset, with Z, or without one for local time in the site's time zone.";

/** The schema of one key's value. */
function ruleSchema(rule: AnyRule): Schema {
  const { description } = rule;
  const nullable = { description, default: null };
  switch (rule.kind) {
    case 'int':
      return {
        type: 'integer',
        description,
        ...(rule.minimum && { minimum: rule.minimum.value }),
        ...(rule.excluded && { not: { const: rule.excluded.value } }),
        ...defaultOf(rule),
      };
    case 'string':
      if (rule.oneOf) return { enum: [...rule.oneOf], description };
      return {
        type: 'string',
        description,
        ...(rule.schemaPattern && { pattern: rule.schemaPattern }),
        ...(rule.nonEmpty && { pattern: NON_EMPTY }),
        ...defaultOf(rule),
        ...(rule.examples && { examples: rule.examples }),
      };
    case 'intOrNull':
      return { type: ['integer', 'null'], ...nullable };
    case 'stringOrNull':
      return { type: ['string', 'null'], ...(rule.oneLine && { pattern: ONE_LINE }), ...nullable };
    case 'bool':
      return { type: 'boolean', description, default: rule.fallback };
    case 'any':
      return nullable;
    case 'list':
      return { type: 'array', description, default: [] };
    case 'intList':
      return { type: 'array', items: { type: 'integer' }, ...(rule.unique && { uniqueItems: true }), description, default: [] };
    case 'stringList':
      return { type: 'array', items: { type: 'string' }, description, default: [] };
    case 'objectList':
      return { type: 'array', items: { $ref: `#/$defs/${rule.items!.name}` }, description, default: [] };
    case 'timestamp':
      return { type: 'string', pattern: TIMESTAMP_PATTERN, description: `${description} ${TIMESTAMP_FORMAT}`, examples: TIMESTAMP_EXAMPLES };
    case 'timestampOrNull':
      return {
        type: ['string', 'null'],
        pattern: TIMESTAMP_PATTERN,
        description: `${description} ${TIMESTAMP_FORMAT}`,
        examples: TIMESTAMP_EXAMPLES,
        default: null,
      };
  }
}

/** A default only where absence means a fixed value: not for required keys nor derived ones (null). */
function defaultOf(rule: AnyRule): Schema {
  return rule.fallback === undefined || rule.fallback === null ? {} : { default: rule.fallback };
}

/** Properties, required keys and the conditionally required ones of some rules, in their order. */
function objectParts(rules: readonly AnyRule[]): { properties: Record<string, Schema>; required: string[]; conditions: Schema } {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const unless = new Map<string, string[]>();
  for (const rule of rules) {
    properties[rule.key] = ruleSchema(rule);
    if (rule.required) required.push(rule.key);
    if (rule.requiredUnless !== undefined) unless.set(rule.requiredUnless, [...(unless.get(rule.requiredUnless) ?? []), rule.key]);
  }
  properties.extra = EXTRA;
  // Keys required unless another holds a string: if that key is a string, else they are required.
  const cases = [...unless].map(([key, keys]) => ({ if: { required: [key], properties: { [key]: { type: 'string' } } }, else: { required: keys } }));
  const conditions = cases.length === 0 ? {} : cases.length === 1 ? cases[0] : { allOf: cases };
  return { properties, required, conditions };
}

/** An object of exactly these keys (and `extra`), or of any more keys for an open shape. */
function record(description: string, rules: readonly AnyRule[], open = false): Schema {
  const { properties, required, conditions } = objectParts(rules);
  return { type: 'object', description, properties, required, additionalProperties: open, ...conditions };
}

const rulesOf = (s: Shape, except?: string): AnyRule[] => Object.values(s.fields).filter((r) => r.key !== except);
const def = (s: Shape): Schema => record(s.description, rulesOf(s), s.open);

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
  const { properties } = objectParts(rulesOf(SITE));
  return {
    $schema: DIALECT,
    $id: 'site.schema.json',
    title: 'aula site.yaml',
    type: ['object', 'null'],
    description: SITE.description,
    properties,
    additionalProperties: false,
  };
}

/** An event in a Markdown file has no `body` key: its body is the text after the front matter. */
function frontMatterEventDef(): Schema {
  return record('An event in the front matter of a Markdown file (the body is the text after it).', rulesOf(EVENT, EVENT.fields.body.key));
}

const KIND_MODELS = (kind: DirectoryKind) => DIRECTORY_MODELS.filter((m) => directoryKind(m) === kind);

function directoryDefs(): Record<string, Schema> {
  const defs: Record<string, Schema> = {};
  const kinds = Object.keys(DIRECTORY_KINDS) as DirectoryKind[];
  for (const kind of kinds) {
    const own = DIRECTORY_KINDS[kind];
    const schema = record(own.description, [...rulesOf(DIRECTORY_OBJECT), ...rulesOf(own)]);
    // Each kind's schema names only its own models, so a model picks exactly one kind.
    const properties = schema.properties as Record<string, Schema>;
    properties.model = { ...properties.model, enum: KIND_MODELS(kind) };
    defs[kind] = schema;
  }
  // Dispatch on `model` with if/then, so a mistake is reported against its own kind only.
  defs[DIRECTORY_OBJECT.name] = {
    type: 'object',
    description: DIRECTORY_OBJECT.description,
    properties: { model: ruleSchema(DIRECTORY_OBJECT.fields.model) },
    required: ['model'],
    allOf: kinds.map((kind) => ({
      if: { properties: { model: { enum: KIND_MODELS(kind) } }, required: ['model'] },
      then: { $ref: `#/$defs/${kind}` },
    })),
  };
  return defs;
}

/** Schema file name (in dist/schemas/) → the file's text, as the build writes it. */
export function contentSchemaFiles(): Record<string, string> {
  return Object.fromEntries(Object.entries(contentSchemas()).map(([name, schema]) => [name, `${JSON.stringify(schema, null, 2)}\n`]));
}

/** Schema file name → schema. */
export function contentSchemas(): Record<string, object> {
  const frontMatter = {
    $schema: DIALECT,
    $id: 'event-front-matter.schema.json',
    title: 'aula event (Markdown front matter)',
    $ref: `#/$defs/${EVENT.name}`,
    $defs: { [EVENT.name]: frontMatterEventDef(), [RELATED_MEDIA.name]: def(RELATED_MEDIA) },
  };
  return {
    'site.schema.json': siteSchema(),
    'pages.schema.json': oneOrMany('pages.schema.json', 'aula pages.yaml', PAGE.name, { [PAGE.name]: def(PAGE) }),
    'categories.schema.json': oneOrMany('categories.schema.json', 'aula categories.yaml', CATEGORY.name, { [CATEGORY.name]: def(CATEGORY) }),
    'media.schema.json': oneOrMany('media.schema.json', 'aula media records', MEDIA.name, { [MEDIA.name]: def(MEDIA) }),
    'event.schema.json': oneOrMany('event.schema.json', 'aula events (YAML or JSON)', EVENT.name, {
      [EVENT.name]: def(EVENT),
      [RELATED_MEDIA.name]: def(RELATED_MEDIA),
    }),
    'event-front-matter.schema.json': frontMatter,
    'directory.schema.json': oneOrMany('directory.schema.json', 'aula directory objects', DIRECTORY_OBJECT.name, directoryDefs()),
  };
}
