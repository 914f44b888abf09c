import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from './front-matter.ts';

describe('splitFrontMatter', () => {
  it('splits YAML and body, the body starting after the closing line', () => {
    expect(splitFrontMatter('---\nid: 1\n---\n# Body\n')).toEqual({ ok: true, yaml: 'id: 1\n', lineOffset: 1, body: '# Body\n' });
  });

  it('accepts empty front matter, CRLF lines and trailing blanks on the fences', () => {
    expect(splitFrontMatter('---\n---\nx')).toEqual({ ok: true, yaml: '', lineOffset: 1, body: 'x' });
    expect(splitFrontMatter('--- \r\nid: 1\r\n---\r\nx\r\n')).toEqual({ ok: true, yaml: 'id: 1\r\n', lineOffset: 1, body: 'x\r\n' });
    expect(splitFrontMatter('---\nid: 1\n---')).toEqual({ ok: true, yaml: 'id: 1\n', lineOffset: 1, body: '' });
  });

  it('ends at the first fence line only, not at --- inside a line', () => {
    const r = splitFrontMatter('---\ntitle: a---b\n---\nbody\n---\nmore\n');
    expect(r).toEqual({ ok: true, yaml: 'title: a---b\n', lineOffset: 1, body: 'body\n---\nmore\n' });
  });

  it('refuses text without an opening or closing fence', () => {
    expect(splitFrontMatter('id: 1\n')).toMatchObject({ ok: false, message: expect.stringContaining('expected front matter') });
    expect(splitFrontMatter('---\nid: 1\n')).toMatchObject({ ok: false, message: expect.stringContaining('no closing') });
  });
});
