import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from './load.ts';
import { MOST_RECORD_PROBLEMS } from './problems.ts';
import { contentFolder, lines, load, loadModel } from './test-folder.ts';

const event = (id: number) =>
  lines(`id: ${id}`, 'title: T', 'start: 2025-05-12T10:00:00+02:00', 'end: 2025-05-12T12:00:00+02:00', 'last_modified: 2025-05-01T00:00:00Z');

describe('loadContent', () => {
  it('reports a missing content folder', async () => {
    const dir = join(await contentFolder({}), 'nope');
    expect(await loadContent(dir)).toEqual({
      model: null,
      problems: [{ file: dir, line: 1, column: 1, key: '', message: 'the content folder does not exist', folder: true }],
    });
  });

  it('reports a content folder that is a file', async () => {
    const file = join(await contentFolder({ 'x.txt': '' }), 'x.txt');
    expect((await loadContent(file)).problems).toEqual([{ file, line: 1, column: 1, key: '', message: 'the content folder is not a folder', folder: true }]);
  });

  it('reads an empty folder as an empty model', async () => {
    const model = await loadModel({});
    expect(model).toMatchObject({ categories: [], events: [], directory: [] });
    expect(model.pages.size + model.media.size).toBe(0);
  });

  it('collects every problem of every file, sorted, even past a YAML syntax error', async () => {
    const { model, lines: out } = await load({
      'site.yaml': 'timezone: Nowhere/City\n',
      'pages.yaml': lines('- {uid: 1, pid: 2, title: A}'),
      'events/b.yaml': lines('id: 1', 'title: [unclosed'),
      'events/a.md': `---\n${event(2)}page: 1\ncategories: [5]\n---\nbody\n`,
      'events/c.json': '[{"id": 2}]',
      'directory/x.yaml': lines('- {model: geo.Room, id: 1}'),
    });
    expect(model).toBeNull();
    expect(out).toEqual([
      'directory/x.yaml:1:3 name: required key is missing',
      'events/a.md:2:5 id: duplicate event id 2 (also defined in events/c.json, list item 1)',
      'events/a.md:8:14 categories[0]: no category has id 5',
      'events/b.yaml:2:17 invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
      'events/c.json:1:2 title: required key is missing',
      'events/c.json:1:2 start: required key is missing',
      'events/c.json:1:2 end: required key is missing',
      'events/c.json:1:2 last_modified: required key is missing',
      'events/c.json:1:9 id: duplicate event id 2 (also defined in events/a.md)',
      'pages.yaml:1:17 pid: no page has uid 2 (use 0 for a root)',
      'site.yaml:1:11 timezone: unknown time zone "Nowhere/City" (expected an IANA name such as Europe/Vienna)',
    ]);
  });

  it("tells a file's first problems found across files, in list order, and counts the rest", async () => {
    const many = Array.from({ length: 150 }, (_, i) => `- ${event(10 + i).trimEnd().split('\n').join('\n  ')}\n  categories: [${i === 0 ? 1 : 5}]\n`).join('');
    const { lines: out } = await load({ 'categories.yaml': lines('- {id: 1, title: C}'), 'events/many.yaml': many });
    expect(out).toHaveLength(MOST_RECORD_PROBLEMS + 1);
    expect(out[0]).toBe('events/many.yaml:12:16 categories[0]: no category has id 5');
    expect(out[MOST_RECORD_PROBLEMS - 1]).toBe(`events/many.yaml:${6 * 100 + 6}:16 categories[0]: no category has id 5`);
    expect(out[MOST_RECORD_PROBLEMS]).toBe(`events/many.yaml:${6 * 100 + 6}:16 and ${149 - MOST_RECORD_PROBLEMS} more problems in this file's records, not shown: correct those above first`);
  });

  it('reports a file that is not UTF-8, and one that holds no objects', async () => {
    const { lines: out } = await load({
      'events/latin1.md': Buffer.from('---\nid: 1\ntitle: M\xfcller\n---\n', 'latin1'),
      // the column counts characters (ö is one), the byte is the first that is not UTF-8
      'events/later.md': Buffer.concat([Buffer.from('---\nid: 2\ntitle: Schön '), Buffer.from([0xe4, 0x28]), Buffer.from('\n---\n')]),
      'events/scalar.yaml': 'just text\n',
      'events/empty.yaml': '# nothing yet\n',
    });
    expect(out).toEqual([
      'events/later.md:3:14 the file is not valid UTF-8 (byte 0xe4 here)',
      'events/latin1.md:3:9 the file is not valid UTF-8 (byte 0xfc here)',
      'events/scalar.yaml:1:1 expected a mapping or a list of mappings, got "just text"',
    ]);
  });

  it('reads only the files of the format and orders records for determinism', async () => {
    const model = await loadModel({
      'events/z.yaml': event(3),
      'events/a/b/c.md': `---\n${event(1)}---\n`,
      'events/2.json': JSON.stringify(JSON.parse(JSON.stringify({ id: 2, title: 'T', start: '2025-01-01', end: '2025-01-01', last_modified: '2025-01-01' }))),
      'events/notes.txt': 'not content',
      'events/.hidden.yaml': 'broken: [',
      'other/stuff.yaml': 'broken: [',
      'directory/d.yaml': lines('- {model: geo.Room, id: 2, name: B}', '- {model: campus.Room, id: 9, name: C}', '- {model: geo.Room, id: 1, name: A}'),
    });
    expect(model.events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(model.directory.map((o) => `${o.model}:${o.id}`)).toEqual(['campus.Room:9', 'geo.Room:1', 'geo.Room:2']);
  });
});

describe('names that look meant as content but are not read', () => {
  it('are told with what they resemble: a folder or file name a typo away, an extension in capitals', async () => {
    const dir = await contentFolder({
      'event/a.yaml': 'id: 1\n',
      'Events/b.yaml': 'id: 2\n',
      'categorie.yaml': '[]\n',
      'Site.YAML': 'page_size: 5\n',
      'events/ok.yaml': lines('id: 3', 'title: T', 'start: 2025-03-01T10:00', 'end: 2025-03-01T11:00', 'last_modified: 2025-01-01'),
      'events/x.YAML': 'id: 4\n',
      'directory/people.Json': '[]\n',
      // not content, and nothing like it: no word
      'README.md': '# notes\n',
      'images/logo.png': 'png',
      'media/files/poster.PNG': 'png',
      'events/notes.txt': 'n',
      '.git/HEAD': 'ref',
      'events/2025/talk.markdown': '---\nid: 5\n---\n',
      'events/.hidden.md': '---\nid: 6\n---\n',
      'directory/.people.yaml': '[]\n',
      // an editor's lock, macOS's metadata twin, a swap file: not told
      'events/.#lock.md': '',
      'events/._x.md': '',
      'events/.x.md.swp': '',
    });
    const { model, notRead } = await loadContent(dir);
    expect(model?.events.map((e) => e.id)).toEqual([3]);
    expect(notRead).toEqual(
      expect.arrayContaining([
        { path: 'event/', like: 'events/' },
        { path: 'Events/', like: 'events/' },
        { path: 'categorie.yaml', like: 'categories.yaml' },
        { path: 'Site.YAML', like: 'site.yaml' },
        { path: 'events/x.YAML', like: 'x.yaml' },
        { path: 'directory/people.Json', like: 'people.json' },
        { path: 'events/2025/talk.markdown', like: 'talk.md' },
        { path: 'events/.hidden.md', like: 'hidden.md' },
        { path: 'directory/.people.yaml', like: 'people.yaml' },
      ]),
    );
    expect(notRead).toHaveLength(9);
  });

  it('tells of a file named as a content folder and a folder named as a content file, which are read as neither', async () => {
    const dir = await contentFolder({ events: 'id: 1\n', 'site.yaml/page_size.yaml': '5\n', 'directory/people.yaml': '[]\n' });
    const { notRead } = await loadContent(dir);
    expect(notRead).toEqual([
      { path: 'events', like: 'events/ as a folder' },
      { path: 'site.yaml/', like: 'site.yaml as a file' },
    ]);
  });

  it('tells of data and Markdown files at the top named for what a folder holds, and of an event among the directory files', async () => {
    const dir = await contentFolder({
      'events.yaml': '- id: 1\n',
      'people.yaml': '[]\n',
      'Rooms.json': '[]\n',
      'settings.yaml': 'page_size: 5\n',
      'Lesung.MD': '---\nid: 2\n---\n',
      'directory/lesung.md': '---\nid: 3\n---\n',
      // notes, and a data file of no content's name: not told
      'README.md': '# notes\n',
      'CHANGELOG.md': '# changes\n',
      'SECURITY.md': '# security\n',
      'CODE_OF_CONDUCT.md': '# conduct\n',
      'directory/README.md': '# the people\n',
      'translations.yaml': 'a: b\n',
      'media/poster.md': 'x',
    });
    const { notRead } = await loadContent(dir);
    expect(notRead).toEqual(
      expect.arrayContaining([
        { path: 'events.yaml', like: 'events/' },
        { path: 'people.yaml', like: 'directory/' },
        { path: 'Rooms.json', like: 'directory/' },
        { path: 'settings.yaml', like: 'site.yaml' },
        { path: 'Lesung.MD', like: 'events/Lesung.md' },
        { path: 'directory/lesung.md', like: 'events/lesung.md' },
      ]),
    );
    expect(notRead).toHaveLength(6);
  });
});
