// A category keeps every key of its own for ?expand=categories, in the order written; a key
// named `__proto__` is a key like any other (YAML and JSON read it as one, and an event's `any`
// values keep it), never the object's prototype, and never dropped without a word.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/index.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { removeDir, tempDir, writeContent } from '../helpers.ts';

let root: string;
beforeAll(() => {
  root = tempDir('aula-proto-');
});
afterAll(() => removeDir(root));

describe('a category key named __proto__', () => {
  it('is kept as the category own key (or named as a problem), never dropped silently', async () => {
    const categories = `- id: 3\n  title: Vortrag\n  __proto__: {audience: all}\n  slug: vortrag\n- id: 7\n  title: Öffentlich\n`;
    const dir = writeContent(join(root, 'c'), { ...FIXTURE_FILES, 'categories.yaml': categories });
    const { model, problems } = await loadContent(dir);
    if (problems.length > 0) {
      expect(problems.map((p) => `${p.file} ${p.key}`)).toContain('categories.yaml __proto__');
      return;
    }
    const category = model!.categories.find((c) => c.id === 3)!;
    expect(Object.getPrototypeOf(category)).toBe(Object.prototype);
    expect(Object.keys(category)).toEqual(['id', 'title', '__proto__', 'slug']);
    expect(JSON.stringify(category)).toBe('{"id":3,"title":"Vortrag","__proto__":{"audience":"all"},"slug":"vortrag"}');
  });

  it('in an event value (any) is kept as a key', async () => {
    const event = `id: 900\ntitle: P\nstart: 2030-01-01T10:00\nend: 2030-01-01T11:00\nlast_modified: 2029-01-01T00:00Z\ndescription: {__proto__: {x: 1}, a: 1}\n`;
    const dir = writeContent(join(root, 'e'), { ...FIXTURE_FILES, 'events/proto.yaml': event });
    const { model, problems } = await loadContent(dir);
    expect(problems).toEqual([]);
    const e = model!.events.find((x) => x.id === 900)!;
    expect(JSON.stringify(e.description)).toBe('{"__proto__":{"x":1},"a":1}');
  });
});
