import { describe, expect, it } from 'vitest';
import { parseDirectoryFile } from './directory.ts';
import { parseEventFile } from './events.ts';
import { parseReader, ParseStream } from './parse-stream.ts';
import type { Parsed } from './records.ts';

describe('ParseStream', () => {
  it('gives back each parse as it was written, in order, its records with the name the reader gives', () => {
    const parses: [string, Parsed<unknown>][] = [
      ['directory/people.yaml', parseDirectoryFile('directory/people.yaml', '- model: campus.Person\n  id: 1\n  last_name: A\n- 7\n- model: campus.Person\n  id: 2\n  last_name: B\n')],
      ['events/a.md', parseEventFile('events/a.md', '---\nid: 3\ntitle: T\nstart: 2026-01-01T10:00:00Z\nend: 2026-01-01T09:00:00Z\nlast_modified: 2026-01-01T08:00:00Z\n---\nBody\n', 'UTC')],
      ['events/empty.yaml', { records: [], problems: [] }],
    ];
    // a list's records keep their items (one that is not a mapping is a problem, not a record), an event its problem
    expect(parses[0][1].records.map((r) => r.item)).toEqual([0, 2]);
    expect(parses[1][1].problems).toHaveLength(1);
    const stream = new ParseStream();
    for (const [, parsed] of parses) stream.write(parsed, parsed.records.map((r) => r.value));
    const bytes = stream.release();
    // its own buffer, to be transferred
    expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.byteLength]);
    const next = parseReader(bytes);
    for (const [file, parsed] of parses) expect(next(file)).toEqual(parsed);
  });

  it('sends the values it is given for the records (an event without its texts)', () => {
    const parsed = parseEventFile('e.yaml', 'id: 1\ntitle: T\nstart: 2026-01-01T10:00:00Z\nend: 2026-01-01T11:00:00Z\nlast_modified: 2026-01-01T08:00:00Z\n', 'UTC');
    const stream = new ParseStream();
    stream.write(parsed, [{ id: 1, start: Number.NaN }]);
    expect(parseReader(stream.release())('e.yaml')).toEqual({ records: [{ value: { id: 1, start: Number.NaN }, file: 'e.yaml', item: null }], problems: [] });
  });
});
