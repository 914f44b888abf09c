import { describe, expect, it } from 'vitest';
import { lines, load, loadModel } from './test-folder.ts';

describe('categories.yaml', () => {
  it('keeps id first, title next, then the other keys in file order; sorts by id; ignores extra', async () => {
    const model = await loadModel({
      'categories.yaml': lines(
        '- slug: talks',
        '  id: 3',
        '  color: red',
        '  title: Talks',
        '  extra: {imported: true}',
        '  parent: {id: 1}',
        '- {id: 1, title: Courses}',
      ),
    });
    expect(model.categories).toEqual([
      { id: 1, title: 'Courses' },
      { id: 3, title: 'Talks', slug: 'talks', color: 'red', parent: { id: 1 } },
    ]);
    expect(Object.keys(model.categories[1])).toEqual(['id', 'title', 'slug', 'color', 'parent']);
  });

  it('accepts categories.json', async () => {
    const model = await loadModel({ 'categories.json': '[{"id": 2, "title": "B"}]' });
    expect(model.categories).toEqual([{ id: 2, title: 'B' }]);
  });

  it('reports duplicate ids and wrong or missing id and title', async () => {
    const { lines: out } = await load({
      'categories.yaml': lines('- {id: 1, title: A}', '- {id: 1, title: B}', '- {id: x}', '- title: [t]'),
    });
    expect(out).toEqual([
      'categories.yaml:1:8 id: duplicate category id 1 (also defined in categories.yaml, list item 2)',
      'categories.yaml:2:8 id: duplicate category id 1 (also defined in categories.yaml, list item 1)',
      'categories.yaml:3:3 title: required key is missing',
      'categories.yaml:3:8 id: expected an integer, got "x"',
      'categories.yaml:4:3 id: required key is missing',
      'categories.yaml:4:10 title: expected a string, got a list',
    ]);
  });
});
