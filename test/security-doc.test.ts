// SECURITY.md says, per guarantee, which tests check it ("Checked by": test files and the
// `describe › it` titles in italics). A renamed or deleted test would leave a guarantee claimed but
// unchecked, so every file named there must exist and every title must be found in the files of its row.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const DOC = readFileSync(join(ROOT, 'SECURITY.md'), 'utf8');
/** "Test files below are under `test/hardening/` unless a path says otherwise" */
const DEFAULT_DIR = 'test/hardening';

interface Row {
  id: string;
  files: string[];
  titles: string[];
  continues: boolean;
}

function rowsOf(markdown: string): Row[] {
  const rows: Row[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split(' | ');
    if (!line.startsWith('| ') || cells.length < 3) continue;
    const id = cells[0].slice(2).trim();
    if (id === '#' || id.startsWith('---')) continue;
    const checked = cells[cells.length - 1].trim();
    const files = [...checked.matchAll(/`([\w./-]+\.test\.ts)`/g)].map((m) => (m[1].includes('/') ? m[1] : `${DEFAULT_DIR}/${m[1]}`));
    // italics are *…*; a `*` inside code spans (`a*b`) is not one
    const prose = checked.replace(/`[^`]*`/g, (code) => code.replace(/\*/g, ''));
    const titles = [...prose.matchAll(/(?:^|[\s(;,›])\*([^*]+)\*/g)].map((m) => m[1]);
    // a cell that begins with "›" or "same tests" goes on with the previous row's test file
    rows.push({ id, files, titles, continues: checked.startsWith('›') || checked.startsWith('same') });
  }
  return rows;
}

/** Code marks are not compared: the doc sets them where a title may or may not have them. */
const unmarked = (text: string) => text.replace(/`/g, '');

/** The pieces of a title that must appear verbatim: the doc shortens titles with "…". */
function fragmentsOf(title: string): string[] {
  return unmarked(title)
    .split('…')
    .map((part) => part.trim())
    .filter((part) => part.length >= 4);
}

const rows = rowsOf(DOC);
let previous: string[] = [];
const resolved = rows.map((row) => {
  const files = row.continues ? [...previous, ...row.files] : row.files;
  previous = files;
  return { ...row, files };
});

describe('SECURITY.md names tests that exist', () => {
  it('lists guarantees with checks', () => {
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((r) => r.titles.length > 0).length).toBeGreaterThan(25);
  });

  it.each(resolved.map((r) => [r.id, r] as const))('row %s: its test files exist and hold its titles', (_id, row) => {
    for (const file of row.files) expect(existsSync(join(ROOT, file)), `${file} (row ${row.id})`).toBe(true);
    // the doc writes a title as it reads (\xff, '), the source as a string literal ('\\xff', '\'')
    const sources = unmarked(row.files.map((file) => readFileSync(join(ROOT, file), 'utf8').replace(/\\(['\\])/g, '$1')).join('\n'));
    for (const title of row.titles) {
      for (const fragment of fragmentsOf(title)) {
        expect(sources.includes(fragment), `row ${row.id}: "${fragment}" is in none of ${row.files.join(', ')}`).toBe(true);
      }
    }
  });
});
