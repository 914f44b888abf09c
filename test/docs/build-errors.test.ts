// docs/api.md's account of how build() rejects: each error name it gives is one the build throws,
// and the refusal it quotes is the message build() rejects with, `out` left as it was.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../src/index.ts';
import { docText, ROOT } from './doc-blocks.ts';

const dir = mkdtempSync(join(tmpdir(), 'aula-build-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The list after "`build()` rejects", its lines joined. */
function section(): string {
  const text = docText('docs/api.md');
  const start = text.indexOf('`build()` rejects');
  return text.slice(start, text.indexOf('\n\nSave this as', start)).replace(/\s*\n\s*/g, ' ');
}

describe("docs/api.md: build()'s rejections", () => {
  it('names the errors the build throws by their name', () => {
    const named = [...section().matchAll(/^- `(\w+)`|\s- `(\w+)`/g)].map((m) => m[1] ?? m[2]);
    expect(named).toEqual(['OutFolderError', 'LockError']);
    for (const name of named) {
      const file = name === 'LockError' ? 'lock.ts' : 'out-folder.ts';
      expect(readFileSync(join(ROOT, 'src/pipeline/out-folder', file), 'utf8')).toContain(`name = '${name}'`);
    }
  });

  it('rejects with an OutFolderError as quoted, leaving the folder as it was', async () => {
    const content = join(dir, 'content');
    mkdirSync(join(content, 'events'), { recursive: true });
    const notes = join(dir, 'notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'todo.txt'), 'mine\n');
    const quoted = /\(`--out notes (is not empty[^`]*)`\)/.exec(section())![1];
    const refusal = build({ content, out: notes });
    await expect(refusal).rejects.toMatchObject({ name: 'OutFolderError', message: `--out ${notes} ${quoted}` });
    expect(readdirSync(notes)).toEqual(['todo.txt']);
    // the content folder itself, as out
    await expect(build({ content, out: content })).rejects.toMatchObject({ name: 'OutFolderError', message: expect.stringMatching(/is the content folder/) });
  });
});
