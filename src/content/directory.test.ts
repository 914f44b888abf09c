import { describe, expect, it } from 'vitest';
import { checkDirectory, checkDirectoryKeys, directoryKeys, joinedKeys, parseDirectoryFile } from './directory.ts';
import type { FileIssue } from './problems.ts';
import { lines, load, loadModel } from './test-folder.ts';

describe('directory', () => {
  it('computes presentations: persons, rooms, organizations; keeps an explicit one', async () => {
    const model = await loadModel({
      'directory/people/staff.yaml': lines(
        '- model: campus.Person',
        '  id: 1',
        '  title: Dr.',
        '  first_name: Anna',
        '  last_name: Müller',
        '  title_after: PhD',
        '  keywords: [Anatomie, Lehre]',
        '- model: structure.Person',
        '  id: 1',
        '  first_name: "  Jo  "',
        '  last_name: Doe',
        '- model: campus.Student',
        '  id: 2',
        '  last_name: Solo',
        '  title: ""',
        '- model: campus.Person',
        '  id: 3',
        '  first_name: X',
        '  last_name: Y',
        '  presentation: "Prof. X Y (Dean)\\n"',
      ),
      'directory/places/rooms.json': JSON.stringify([
        { model: 'geo.Room', id: 7, name: 'Hörsaal 1', code: 'HS1', level_id: 2, room_id: 70 },
        { model: 'campus.Room', id: 7, name: 'Seminar room' },
      ]),
      'directory/org.yml': lines('model: structure.Organization', 'id: 4', 'name: Institut für Physiologie', 'extra: {source: ldap}'),
    });
    const shown = model.directory.map((o) => [o.model, o.id, o.presentation]);
    // Sorted by model, then id.
    expect(shown).toEqual([
      ['campus.Person', 1, 'Dr. Anna Müller, PhD'],
      ['campus.Person', 3, 'Prof. X Y (Dean)'],
      ['campus.Room', 7, 'Seminar room'],
      ['campus.Student', 2, 'Solo'],
      ['geo.Room', 7, 'Hörsaal 1 (HS1)'],
      ['structure.Organization', 4, 'Institut für Physiologie'],
      ['structure.Person', 1, 'Jo Doe'],
    ]);
    expect(model.directory[0]).toEqual({
      model: 'campus.Person',
      id: 1,
      presentation: 'Dr. Anna Müller, PhD',
      keywords: ['Anatomie', 'Lehre'],
      title: 'Dr.',
      first_name: 'Anna',
      last_name: 'Müller',
      title_after: 'PhD',
      name: null,
      code: null,
      level_id: null,
      room_id: null,
    });
    expect(model.directory[4]).toMatchObject({ name: 'Hörsaal 1', code: 'HS1', level_id: 2, room_id: 70, title: null, last_name: null });
    expect(model.directory[2]).toMatchObject({ level_id: null, room_id: null, code: null });
  });

  it('reports duplicate ids per model only', async () => {
    const { lines: out } = await load({
      'directory/a.yaml': lines('- {model: geo.Room, id: 1, name: A}', '- {model: campus.Room, id: 1, name: B}'),
      'directory/b/c.yaml': lines('model: geo.Room', 'id: 1', 'name: C'),
    });
    expect(out).toEqual([
      'directory/a.yaml:1:25 id: duplicate geo.Room id 1 (also defined in directory/b/c.yaml)',
      'directory/b/c.yaml:2:5 id: duplicate geo.Room id 1 (also defined in directory/a.yaml, list item 1)',
    ]);
  });

  it('reports an unknown model, keys of another kind, missing and mistyped keys', async () => {
    const { lines: out } = await load({
      'directory/a.yaml': lines(
        '- {model: campus.person, id: 1}',
        '- {model: geo.Room, id: 2, name: R, first_name: x, level_id: "2"}',
        '- {model: structure.Organization, id: 3, code: X}',
        '- {model: campus.Person, id: 4, keywords: [1]}',
        '- {id: x}',
      ),
    });
    expect(out).toEqual([
      'directory/a.yaml:1:11 model: expected one of campus.Person, campus.Room, campus.Student, geo.Room, structure.Organization, structure.Person, got "campus.person"',
      'directory/a.yaml:2:37 first_name: unknown key for a geo.Room',
      'directory/a.yaml:2:62 level_id: expected an integer or null, got "2"',
      'directory/a.yaml:3:3 name: required key is missing',
      'directory/a.yaml:3:42 code: unknown key for a structure.Organization',
      'directory/a.yaml:4:3 last_name: required key is missing',
      'directory/a.yaml:4:44 keywords[0]: expected a string, got 1',
      'directory/a.yaml:5:3 model: required key is missing',
      'directory/a.yaml:5:8 id: expected an integer, got "x"',
    ]);
  });

  it('parses a file as a pure function of path and text', () => {
    const parsed = parseDirectoryFile('directory/x.yaml', lines('- {model: geo.Room, id: 1, name: A}', '- {model: geo.Room, id: 2, name: B}'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.records.map((r) => [r.file, r.item, r.value.presentation])).toEqual([
      ['directory/x.yaml', 0, 'A'],
      ['directory/x.yaml', 1, 'B'],
    ]);
  });

  it('checks packed keys as it checks the records: the same issues in the same order, none without a repeat', () => {
    const files = ['directory/a.yaml', 'directory/b.yaml'];
    const texts = [
      '- {model: campus.Room, id: 2, name: B}\n- {model: geo.Room, id: 2, name: C}\n- {model: no.Such, id: 2}\n- {model: campus.Room, name: D}\n',
      '- {model: campus.Room, id: 2, name: E}\n- {model: no.Such, id: 2}\n- {model: campus.Person, id: 7, last_name: F}\n- {model: campus.Room, name: G}\n',
    ];
    for (const [repeat, repeats] of [[2, 2], [3, 0]] as const) {
      const parsed = texts.map((t, i) => parseDirectoryFile(files[i], i === 1 ? t.replace('id: 2, name: E', `id: ${repeat}, name: E`) : t));
      const records = parsed.flatMap((p) => p.records);
      const expected: FileIssue[] = [];
      checkDirectory(records, expected);
      const packed = joinedKeys(parsed.map((p, from) => ({ keys: directoryKeys(p.records, 0), from })));
      const got: FileIssue[] = [];
      checkDirectoryKeys(packed, files, got);
      expect(got).toEqual(expected);
      expect(got.length).toBe(repeats);
    }
  });
});
