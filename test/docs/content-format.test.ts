// docs/content-format.md against the rules the loader validates with (src/content/shapes.ts):
// every shape has one table (`<!-- keys: <shape> -->`) listing exactly its keys, in order, each
// with the type and the default (or "required") the rule declares. A key added to shapes.ts
// without docs, or a rule changed under them, fails here. So do the limits the page states, and
// the schema line it shows, against the loader's limits and what `aula init` writes.
import { closeSync, mkdirSync, openSync, ftruncateSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMAS_IN_PACKAGE } from '../../src/cli/init/starter-content.ts';
import { describeSize, MAX_CONTENT_FILE_BYTES } from '../../src/content/files.ts';
import { MAX_MEDIA_FILE_BYTES } from '../../src/content/media.ts';
import type { AnyRule, Shape } from '../../src/content/rules.ts';
import * as shapes from '../../src/content/shapes.ts';
import { aula } from '../aula-cli.ts';
import { removeDir, tempDir } from '../helpers.ts';
import { parse } from 'yaml';
import { parseEventFile } from '../../src/content/events.ts';
import { splitFrontMatter } from '../../src/content/front-matter.ts';
import { directoryKind, type DIRECTORY_MODELS } from '../../src/model/types.ts';
import { blocksFor, docText, ROOT } from './doc-blocks.ts';

const PAGE = 'docs/content-format.md';

const TYPES: Record<AnyRule['kind'], string> = {
  int: 'integer',
  intOrNull: 'integer or null',
  string: 'string',
  stringOrNull: 'string or null',
  bool: 'boolean',
  any: 'any',
  list: 'list',
  intList: 'list of integers',
  stringList: 'list of strings',
  objectList: 'list of mappings',
  timestamp: 'timestamp',
  timestampOrNull: 'timestamp or null',
};

/** Defaults the rules cannot state, said in words. */
const SAID: Record<string, string> = { 'event.teaser': 'derived from the body' };

function defaultCell(shape: Shape, key: string, rule: AnyRule): string {
  if (SAID[`${shape.name}.${key}`]) return SAID[`${shape.name}.${key}`];
  if (rule.required) return 'required';
  if (rule.requiredUnless !== undefined) return `required without \`${rule.requiredUnless}\``;
  const v = rule.fallback;
  if (Array.isArray(v)) return '`[]`';
  if (v === '') return '`""`';
  return `\`${v === null ? 'null' : String(v)}\``;
}

/** The rows of the table after `<!-- keys: name -->`: [key, type, default]. */
function table(name: string): string[][] {
  const text = docText(PAGE);
  const marker = `<!-- keys: ${name} -->\n`;
  const at = text.indexOf(marker);
  expect(at, `${PAGE} has no table marked ${marker.trim()}`).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(marker, at + 1), `${PAGE} marks two tables ${name}`).toBe(-1);
  const lines = text.slice(at + marker.length).split('\n');
  expect(lines[0]).toBe('| key | type | default | meaning |');
  const rows: string[][] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    const cells = line.slice(1, -1).split(' | ').map((c) => c.trim());
    rows.push([cells[0].replace(/^`|`$/g, ''), cells[1], cells[2]]);
  }
  return rows;
}

const SHAPES = (Object.values(shapes) as unknown[]).filter((v): v is Shape => typeof v === 'object' && v !== null && 'fields' in v && 'name' in v);

describe('docs/content-format.md', () => {
  it('has a table for every shape of content object', () => {
    expect(SHAPES.map((s) => s.name).sort()).toEqual(['category', 'event', 'media', 'object', 'organization', 'page', 'person', 'related_media', 'room', 'site']);
  });

  it.each(SHAPES.map((s) => [s.name, s] as const))('lists every key of %s with its type and default, in order', (_, shape) => {
    const expected = Object.entries(shape.fields).map(([key, rule]) => [key, TYPES[rule.kind], defaultCell(shape, key, rule)]);
    expect(table(shape.name)).toEqual(expected);
  });

  it('writes every key of every shape in one of its content examples, and extra', () => {
    // the keys each example writes, by the shape its file and place say it is
    const written = new Map<string, Set<string>>(SHAPES.map((sh) => [sh.name, new Set<string>()]));
    const add = (shape: string, obj: unknown) => {
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return;
      for (const key of Object.keys(obj)) written.get(shape)!.add(key);
    };
    for (const block of blocksFor('content', [PAGE])) {
      const path = block.args[0];
      const value: unknown = path.endsWith('.md') ? parse((splitFrontMatter(block.text) as { yaml: string }).yaml) : parse(block.text);
      const objects = Array.isArray(value) ? value : [value];
      const shape = path === 'site.yaml' ? 'site' : path === 'pages.yaml' ? 'page' : path === 'categories.yaml' ? 'category' : path.startsWith('media') ? 'media' : null;
      for (const obj of objects as Record<string, unknown>[]) {
        if (shape) add(shape, obj);
        else if (path.startsWith('events/')) {
          add('event', obj);
          if (path.endsWith('.md')) written.get('event')!.add('body');
          for (const r of (obj.related_media as unknown[] | undefined) ?? []) add('related_media', r);
        } else {
          const kind = directoryKind(obj.model as (typeof DIRECTORY_MODELS)[number]);
          for (const key of Object.keys(obj)) written.get(key in shapes.DIRECTORY_KINDS[kind].fields ? kind : 'object')!.add(key);
        }
      }
    }
    for (const sh of SHAPES) {
      const missing = Object.keys(sh.fields).filter((key) => !written.get(sh.name)!.has(key));
      expect(missing, `${sh.name}: keys no example of ${PAGE} writes`).toEqual([]);
    }
    expect(written.get('event')!.has('extra')).toBe(true);
  });

  it("states the site's defaults as the code has them", () => {
    const text = docText(PAGE);
    for (const [key, value] of Object.entries(shapes.DEFAULT_SITE)) {
      if (value !== null) expect(text, key).toContain(`| \`${key}\` | ${typeof value === 'number' ? 'integer' : 'string'} | \`${value}\` |`);
    }
  });
});

describe("docs/content-format.md's values JSON cannot hold, and YAML's tags", () => {
  const paragraph = () => docText(PAGE).slice(docText(PAGE).indexOf('A value JSON cannot hold')).split('\n\n')[0].replace(/\s+/g, ' ');
  const EVENT = 'id: 1\ntitle: A\nstart: 2026-05-12T18:00\nend: 2026-05-12T20:00\nlast_modified: 2026-05-01\n';
  const read = (value: string) => parseEventFile('events/a.yaml', `${EVENT}keywords: ${value}\n`, 'Europe/Vienna');

  it('are as the page says: refused at their key, or read as the core schema reads them', () => {
    const text = paragraph();
    for (const refused of ['.nan', '.inf', '1e400', '!!binary aGk=', '!!set {a}', '!!omap [a: 1]', '!!timestamp 2026-05-12 18:00:00', '!local x', '!!float abc']) {
      expect(read(refused).problems, refused).toHaveLength(1);
    }
    for (const tag of ['!!binary', '!!set', '!!omap', '!!timestamp', '!!str', '!!int', '!!float', '!!bool', '!!null', '!!seq', '!!map', '`!local`', '`!!float abc`']) {
      expect(text).toContain(tag);
    }
    expect(text).toContain('(`keywords: .nan` — quote it, `".nan"`, for the text)');
    expect(read('".nan"').records[0].value.keywords).toBe('.nan');
    expect(text).toContain('(`!!str 12` is the text `"12"`)');
    expect(read('!!str 12').records[0].value.keywords).toBe('12');
  });
});

describe("docs/content-format.md's limits and editor schemas", () => {
  const text = () => docText(PAGE).replace(/\s+/g, ' ');

  it("state the loader's limits of a content file and a media file", () => {
    expect(text()).toContain(`a content file is at most ${describeSize(MAX_CONTENT_FILE_BYTES)}`);
    expect(text()).toContain(`it may have up to ${describeSize(MAX_MEDIA_FILE_BYTES)}, beyond which it is a problem at its \`file:\` key`);
  });

  it('show the problem `aula check` prints for a larger content file', () => {
    const shown = /\(`(events\/all\.yaml:1:1 is (\d+) MiB, [^`]+)`\)/.exec(text());
    expect(shown).not.toBeNull();
    const dir = tempDir('aula-doc-limit-');
    try {
      mkdirSync(join(dir, 'events'));
      // sparse: the size without the bytes, as the loader reads none of it
      const fd = openSync(join(dir, 'events', 'all.yaml'), 'w');
      ftruncateSync(fd, Number(shown![2]) * 1024 * 1024);
      closeSync(fd);
      const r = aula(['check', '--content', dir]);
      expect(r.code).toBe(1);
      expect(r.err.split('\n')[0]).toBe(shown![1]);
    } finally {
      removeDir(dir);
    }
  });

  it("name the schemas where aula init's starter files do", () => {
    const [block] = blocksFor('content', [PAGE]).filter((b) => b.text.startsWith('# yaml-language-server:'));
    const file = join('content', block.args[0]);
    const hint = relative(dirname(file), join(SCHEMAS_IN_PACKAGE, 'event.schema.json'));
    expect(block.text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${hint}`);
  });
});
