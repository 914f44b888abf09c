import { describe, expect, it } from 'vitest';
import { lines, load, loadModel } from './test-folder.ts';

describe('pages.yaml', () => {
  it('reads nodes with defaults, keyed by uid', async () => {
    const model = await loadModel({
      'pages.yaml': lines(
        '- uid: 1',
        '  pid: 0',
        '  title: Root',
        '  is_siteroot: true',
        '  domains: [example.org, www.example.org]',
        '  uri: https://example.org/',
        '- uid: 2',
        '  pid: 1',
        '  title: Events',
      ),
    });
    expect([...model.pages.values()]).toEqual([
      { uid: 1, pid: 0, title: 'Root', is_siteroot: true, domains: ['example.org', 'www.example.org'], uri: 'https://example.org/' },
      { uid: 2, pid: 1, title: 'Events', is_siteroot: false, domains: [], uri: null },
    ]);
    expect(model.pages.get(2)?.title).toBe('Events');
  });

  it('reports duplicate uids at each of them', async () => {
    const { lines: out } = await load({ 'pages.yaml': lines('- {uid: 1, pid: 0, title: A}', '- {uid: 1, pid: 0, title: B}') });
    expect(out).toEqual([
      'pages.yaml:1:9 uid: duplicate page uid 1 (also defined in pages.yaml, list item 2)',
      'pages.yaml:2:9 uid: duplicate page uid 1 (also defined in pages.yaml, list item 1)',
    ]);
  });

  it('reports a pid that names no node', async () => {
    const { lines: out } = await load({ 'pages.yaml': lines('- uid: 1', '  pid: 0', '  title: A', '- uid: 2', '  pid: 9', '  title: B') });
    expect(out).toEqual(['pages.yaml:5:8 pid: no page has uid 9 (use 0 for a root)']);
  });

  it('reports each cycle once, at its smallest uid, also a page that is its own parent', async () => {
    const { lines: out } = await load({
      'pages.yaml': lines(
        '- {uid: 5, pid: 3, title: A}',
        '- {uid: 3, pid: 4, title: B}',
        '- {uid: 4, pid: 5, title: C}',
        '- {uid: 6, pid: 4, title: below the cycle}',
        '- {uid: 7, pid: 7, title: self}',
      ),
    });
    expect(out).toEqual([
      'pages.yaml:2:17 pid: the page tree has a cycle: 3 → 4 → 5 → 3 (each page\'s pid leads to the next)',
      'pages.yaml:5:17 pid: the page tree has a cycle: 7 → 7 (each page\'s pid leads to the next)',
    ]);
  });

  it('reports missing and mistyped keys', async () => {
    const { lines: out } = await load({ 'pages.yaml': lines('- uid: 0', '  domains: example.org', '  uri: 5', '  is_siteroot: "no"') });
    expect(out).toEqual([
      'pages.yaml:1:3 title: required key is missing',
      'pages.yaml:1:8 uid: uid 0 is taken: a pid of 0 marks a root',
      'pages.yaml:2:12 domains: expected a list, got "example.org"',
      'pages.yaml:3:8 uri: expected a string or null, got 5',
      'pages.yaml:4:16 is_siteroot: expected a boolean (true or false), got "no"',
    ]);
  });
});
