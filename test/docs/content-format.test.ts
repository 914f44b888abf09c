// docs/content-format.md against the rules the loader validates with (src/content/shapes.ts):
// every shape has one table (`<!-- keys: <shape> -->`) listing exactly its keys, in order, each
// with the type and the default (or "required") the rule declares. A key added to shapes.ts
// without docs, or a rule changed under them, fails here.
import { describe, expect, it } from 'vitest';
import type { AnyRule, Shape } from '../../src/content/rules.ts';
import * as shapes from '../../src/content/shapes.ts';
import { docText } from './doc-blocks.ts';

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

  it("states the site's defaults as the code has them", () => {
    const text = docText(PAGE);
    for (const [key, value] of Object.entries(shapes.DEFAULT_SITE)) {
      if (value !== null) expect(text, key).toContain(`| \`${key}\` | ${typeof value === 'number' ? 'integer' : 'string'} | \`${value}\` |`);
    }
  });
});
