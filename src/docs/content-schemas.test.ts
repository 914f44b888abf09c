import Ajv2020 from 'ajv/dist/2020.js';
import fg from 'fast-glob';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readCategory } from '../content/categories.ts';
import { parseDirectoryFile, readDirectoryObject } from '../content/directory.ts';
import { parseEventFile, readEvent } from '../content/events.ts';
import { Fields } from '../content/fields.ts';
import { splitFrontMatter } from '../content/front-matter.ts';
import { readMedia } from '../content/media.ts';
import { readPage } from '../content/page-tree.ts';
import { IssueSink } from '../content/problems.ts';
import { parseFile, type ReadObject } from '../content/records.ts';
import type { Shape } from '../content/rules.ts';
import { CATEGORY, EVENT as EVENT_SHAPE, MEDIA, PAGE, RELATED_MEDIA, SITE } from '../content/shapes.ts';
import { readSite } from '../content/site.ts';
import { DIRECTORY_MODELS, directoryKind } from '../model/types.ts';
import { contentSchemas } from './content-schemas.ts';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');
const schemas = contentSchemas() as Record<string, any>;

// strictRequired would refuse `else: {required: […]}` naming properties declared beside the if.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
for (const schema of Object.values(schemas)) ajv.addSchema(schema);
const validator = (file: string) => ajv.getSchema(file)!;

/** Which schema a content file is written against. */
function schemaFor(path: string): string {
  if (path.startsWith('events/')) return path.endsWith('.md') ? 'event-front-matter.schema.json' : 'event.schema.json';
  if (path.startsWith('directory/')) return 'directory.schema.json';
  if (path.startsWith('media')) return 'media.schema.json';
  return `${path.slice(0, path.indexOf('.'))}.schema.json`;
}

/** The value an editor validates: the whole file, or a Markdown file's front matter. */
function dataOf(path: string, text: string): unknown {
  if (path.endsWith('.json')) return JSON.parse(text);
  if (!path.endsWith('.md')) return parse(text);
  const fm = splitFrontMatter(text);
  if (!fm.ok) throw new Error(`${path}: ${fm.message}`);
  return parse(fm.yaml) ?? {};
}

function check(schema: string, value: unknown): string[] {
  const validate = validator(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('the content schemas', () => {
  it('are one file each, named by their $id, in draft 2020-12', () => {
    expect(Object.keys(schemas)).toEqual([
      'site.schema.json', 'pages.schema.json', 'categories.schema.json', 'media.schema.json',
      'event.schema.json', 'event-front-matter.schema.json', 'directory.schema.json',
    ]);
    for (const [file, schema] of Object.entries(schemas)) {
      expect(schema.$id).toBe(file);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(JSON.stringify(schema), 'self-contained').not.toMatch(/"\$ref":"(?!#)/);
      expect(() => validator(file)).not.toThrow();
    }
  });

  it('accept every file of the bundled sample content', async () => {
    const files = (await fg(['**/*.{yaml,yml,json,md}'], { cwd: CONTENT })).sort();
    expect(files.length).toBeGreaterThan(150);
    const kinds = new Set<string>();
    for (const path of files) {
      const schema = schemaFor(path);
      kinds.add(schema);
      expect(check(schema, dataOf(path, readFileSync(join(CONTENT, path), 'utf8'))), path).toEqual([]);
    }
    expect(kinds.size).toBe(Object.keys(schemas).length);
  });
});

// Each mistake is one the build refuses too; the loader is asked for every case, so schema and
// build cannot drift apart on what a single file may hold.
type Kind = 'site' | 'pages' | 'categories' | 'media' | 'event' | 'front-matter' | 'directory';

const READERS: Record<Exclude<Kind, 'event' | 'front-matter' | 'directory'>, [ReadObject<unknown>, 'one' | 'many']> = {
  site: [readSite, 'one'],
  pages: [readPage, 'many'],
  categories: [readCategory, 'many'],
  media: [readMedia, 'many'],
};

/** The loader's problems with a file of this kind (problems that need other files aside). */
function loaderProblems(kind: Kind, yamlText: string): string[] {
  const file = kind === 'front-matter' ? 'events/x.md' : `${kind}.yaml`;
  const text = kind === 'front-matter' ? `---\n${yamlText}---\nBody.\n` : yamlText;
  const parsed =
    kind === 'event' || kind === 'front-matter'
      ? parseEventFile(file, text, 'Europe/Vienna')
      : kind === 'directory'
        ? parseDirectoryFile(file, text)
        : parseFile(file, text, READERS[kind][0], READERS[kind][1]);
  return parsed.problems.map((p) => `${p.key}: ${p.message}`);
}

function schemaProblems(kind: Kind, yamlText: string): string[] {
  const schema = kind === 'front-matter' ? 'event-front-matter.schema.json' : `${kind}.schema.json`;
  return check(schema, parse(yamlText) ?? (kind === 'front-matter' ? {} : null));
}

const EVENT = `id: 1
title: Vortrag
start: 2025-05-12T18:00
end: 2025-05-12T20:00:00+02:00
last_modified: 2025-05-01T10:00:00Z
`;
const PERSON = 'model: campus.Person\nid: 1\nlast_name: Müller\n';
const ROOM = 'model: geo.Room\nid: 2\nname: Hörsaal 1\ncode: HS1\nlevel_id: 3\nroom_id: null\n';

const ACCEPTED: [string, Kind, string][] = [
  ['an empty site file', 'site', ''],
  ['a full site file', 'site', 'base_url: https://example.at/api\ntimezone: UTC\npage_size: 5\nmax_page_size: 50\nextra: {a: 1}\n'],
  ['a single page', 'pages', 'uid: 1\ntitle: Start\n'],
  ['a category with keys of its own', 'categories', '- id: 1\n  title: Kurs\n  color: "#fff"\n  sort: 3\n'],
  ['media with a file', 'media', '- id: 1\n  filename: a.txt\n  file: media/a.txt\n'],
  ['media without a file', 'media', '- id: 1\n  filename: a.txt\n  mimetype: text/plain\n  size: 0\n  file: null\n'],
  ['an event', 'event', EVENT],
  ['a list of events with a body', 'event', `- ${EVENT.trim().replaceAll('\n', '\n  ')}\n  body: <p>x</p>\n`],
  ['an event with everything', 'event', `${EVENT}allday: true\nurl: null\nlink: https://x.at\npage: 3\ncategories: [1, 2]\nheader_image: 4\nmedia: [4]\nrelated_media:\n  - {id: 1, media: 4, datetime: "2025-01-01", title: null, extra: 1}\norganizer: null\nteaser: T\nregister: true\nregistration_end: null\ndfp_points: 3\nkeywords: [a]\nlanguage: de\ngallery: []\nextra: {x: 1}\n`],
  ['front matter', 'front-matter', EVENT],
  ['a person', 'directory', PERSON],
  ['rooms and an organization', 'directory', `- ${ROOM.trim().replaceAll('\n', '\n  ')}\n- model: structure.Organization\n  id: 3\n  name: Institut\n  keywords: [Lehre]\n  extra: 1\n`],
];

const REFUSED: [string, Kind, string][] = [
  ['an unknown site key', 'site', 'page_sise: 20\n'],
  ['a base_url with a query', 'site', 'base_url: https://example.at/?x=1\n'],
  ['a page_size of 0', 'site', 'page_size: 0\n'],
  ['a list as site file', 'site', '- timezone: UTC\n'],
  ['a page without title', 'pages', '- uid: 1\n'],
  ['page uid 0', 'pages', '- uid: 0\n  title: Null\n'],
  ['domains as a string', 'pages', '- uid: 1\n  title: S\n  domains: example.at\n'],
  ['a category id as text', 'categories', '- id: eins\n  title: Kurs\n'],
  ['media without file, size and mimetype', 'media', '- id: 1\n  filename: a.txt\n'],
  ['a negative media size', 'media', '- id: 1\n  filename: a.txt\n  mimetype: text/plain\n  size: -1\n'],
  ['an unknown media key', 'media', '- id: 1\n  filename: a.txt\n  file: a.txt\n  pfad: a.txt\n'],
  ['an unknown event key', 'event', `${EVENT}titel: Tippfehler\n`],
  ['an event without start', 'event', EVENT.replace(/start:.*\n/, '')],
  ['a quoted boolean', 'event', `${EVENT}allday: "yes"\n`],
  ['a timestamp that is no timestamp', 'event', EVENT.replace('2025-05-12T18:00', 'nächsten Montag')],
  ['month 13', 'event', EVENT.replace('2025-05-12T18:00', '2025-13-12T18:00')],
  ['categories as one number', 'event', `${EVENT}categories: 3\n`],
  ['a category id as text in the list', 'event', `${EVENT}categories: [Kurs]\n`],
  ['a category listed twice', 'event', `${EVENT}categories: [1, 2, 1]\n`],
  ['dfp_points as a decimal', 'event', `${EVENT}dfp_points: 1.5\n`],
  ['an unknown related_media key', 'event', `${EVENT}related_media:\n  - {id: 1, media: 2, datetime: "2025-01-01", titel: x}\n`],
  ['related_media without datetime', 'event', `${EVENT}related_media:\n  - {id: 1, media: 2}\n`],
  ['body in front matter', 'front-matter', `${EVENT}body: <p>x</p>\n`],
  ['an unknown front matter key', 'front-matter', `${EVENT}ort: Wien\n`],
  ['an unknown model', 'directory', 'model: campus.Persn\nid: 1\nlast_name: X\n'],
  ['no model', 'directory', 'id: 1\nlast_name: X\n'],
  ['a person without last_name', 'directory', 'model: structure.Person\nid: 1\nfirst_name: Eva\n'],
  ['a room key on a person', 'directory', `${PERSON}code: HS1\n`],
  ['a person key on a room', 'directory', `${ROOM}first_name: Eva\n`],
  ['an organization with a code', 'directory', 'model: structure.Organization\nid: 1\nname: I\ncode: X\n'],
  ['level_id as text', 'directory', ROOM.replace('level_id: 3', 'level_id: drei')],
  ['keywords as a string', 'directory', `${PERSON}keywords: Lehre\n`],
];

describe('schema and build agree on single files', () => {
  it.each(ACCEPTED)('accept %s', (_, kind, text) => {
    expect(loaderProblems(kind, text)).toEqual([]);
    expect(schemaProblems(kind, text)).toEqual([]);
  });

  it.each(REFUSED)('refuse %s', (_, kind, text) => {
    expect(loaderProblems(kind, text)).not.toEqual([]);
    expect(schemaProblems(kind, text)).not.toEqual([]);
  });
});

/** Records the keys whose presence is asked of an object (Fields asks with Object.hasOwn). */
function recorder() {
  const seen = new Set<string>();
  const wrap = <T extends object>(obj: T): T =>
    new Proxy(obj, {
      getOwnPropertyDescriptor(t, key) {
        if (typeof key === 'string') seen.add(key);
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
    });
  return { seen, wrap };
}

/** The keys a reader reads of `target`: its allowed keys, since unknown ones are those it never read. */
function keysRead(read: (f: Fields) => void, target: Record<string, unknown> = {}): string[] {
  const r = recorder();
  read(new Fields(r.wrap(target), new IssueSink(null, [])));
  return [...r.seen].sort();
}

const propertiesOf = (schema: any, def: string) => Object.keys(schema.$defs[def].properties).sort();

describe('schema properties are exactly the keys the loader reads', () => {
  it('site, pages, media, categories', () => {
    expect(keysRead((f) => readSite(f))).toEqual(Object.keys(schemas['site.schema.json'].properties).sort());
    expect(keysRead((f) => readPage(f))).toEqual(propertiesOf(schemas['pages.schema.json'], 'page'));
    expect(keysRead((f) => readMedia(f))).toEqual(propertiesOf(schemas['media.schema.json'], 'media'));
    // every other key of a category is its own, so the loader reads only these
    expect(keysRead((f) => readCategory(f))).toEqual(['id', 'title']);
    expect(propertiesOf(schemas['categories.schema.json'], 'category')).toEqual(['extra', 'id', 'title']);
  });

  it('events and their related media, in YAML and as front matter', () => {
    const related = recorder();
    const eventKeys = keysRead((f) => readEvent(f, 'UTC', null), { related_media: [related.wrap({})] });
    const schema = schemas['event.schema.json'];
    expect(eventKeys).toEqual(propertiesOf(schema, 'event'));
    expect([...related.seen].sort()).toEqual(propertiesOf(schema, 'related_media'));

    const frontMatter = schemas['event-front-matter.schema.json'];
    // a Markdown reader asks for `body` only to refuse it
    const markdownKeys = keysRead((f) => readEvent(f, 'UTC', 'Body')).filter((k) => k !== 'body');
    expect(propertiesOf(frontMatter, 'event')).toEqual(markdownKeys);
    expect(propertiesOf(frontMatter, 'related_media')).toEqual(propertiesOf(schema, 'related_media'));
  });

  it.each(DIRECTORY_MODELS)('directory objects of %s', (model) => {
    const kind = directoryKind(model);
    expect(keysRead((f) => readDirectoryObject(f), { model })).toEqual(propertiesOf(schemas['directory.schema.json'], kind));
  });
});

describe('the schemas are written from the loader rules', () => {
  const defs: [Shape, any][] = [
    [PAGE, schemas['pages.schema.json'].$defs.page],
    [CATEGORY, schemas['categories.schema.json'].$defs.category],
    [MEDIA, schemas['media.schema.json'].$defs.media],
    [EVENT_SHAPE, schemas['event.schema.json'].$defs.event],
    [RELATED_MEDIA, schemas['event.schema.json'].$defs.related_media],
    [SITE, schemas['site.schema.json']],
  ];

  it.each(defs.map(([s, d]) => [s.name, s, d] as const))('%s: every rule, with its description, default and requirement', (_, shape, def) => {
    for (const rule of Object.values(shape.fields)) {
      const property = def.properties[rule.key];
      expect(property.description, rule.key).toContain(rule.description);
      if (typeof rule.fallback === 'boolean' || typeof rule.fallback === 'number') expect(property.default, rule.key).toBe(rule.fallback);
      expect(def.required?.includes(rule.key) ?? false, rule.key).toBe(rule.required);
    }
  });
});
