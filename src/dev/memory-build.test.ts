// What aula dev serves from memory after any sequence of edits is what a clean load and render of
// the same content makes: the same problems, in the same order, for broken content; otherwise
// the same data files (the event parts and their offsets byte for byte, the columns and the
// autocomplete index as the server reads them). Seeded random edits of every kind, each applied
// to the kept state by the paths a watcher would report.
import { mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadContent, formatProblem } from '../content/index.ts';
import { generateContent } from '../gen/content-generator.ts';
import { listFiles } from '../util/same-files.ts';
import { normalizeBaseUrl } from '../util/base-path.ts';
import { renderRows } from '../store/write/data-files.ts';
import { buildAutocompleteFiles } from '../store/write/autocomplete-files.ts';
import { columnValuesFromRows } from '../store/write/column-values.ts';
import { eventData } from '../store/write/event-data.ts';
import { splitParts } from '../store/format/event-parts.ts';
import { toJson } from '../util/json.ts';
import { calendarData } from '../pipeline/render/calendar-data.ts';
import { compareListOrder, renderCategory } from '../render/event.ts';
import type { Model } from '../model/types.ts';
import { AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, DATA_FILES, EVENT_PART_ROWS, eventPartFile, partFirsts } from '../store/format/dist-paths.ts';
import { COLUMN_FILES } from '../store/format/column-files.ts';
import { mulberry32 } from '../util/mulberry32.ts';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { ContentState } from './content-state.ts';
import { MemoryBuild } from './memory-build.ts';

/** The manifest's built_at of `events`: their newest last_modified. */
const newestOf = (events: readonly { last_modified: number }[]) => events.reduce((latest, e) => Math.max(latest, e.last_modified), 0);

// the rows' fit to their offsets, checked when a dist is read: counted (the rows made here are not checked again)
const { offsetChecks } = vi.hoisted(() => ({ offsetChecks: { n: 0 } }));
vi.mock('../store/read/row-offsets.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../store/read/row-offsets.ts')>();
  return { ...real, rowOffsetsProblem: (...args: Parameters<typeof real.rowOffsetsProblem>) => (offsetChecks.n++, real.rowOffsetsProblem(...args)) };
});

// the search indexes made of every row (none spliced from a previous one): counted
const { wholeIndexes } = vi.hoisted(() => ({ wholeIndexes: { n: 0 } }));
vi.mock('../store/write/search-index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../store/write/search-index.ts')>();
  return {
    ...real,
    searchIndexOf: (...args: Parameters<typeof real.searchIndexOf>) => (wholeIndexes.n++, real.searchIndexOf(...args)),
    searchIndex: (...args: Parameters<typeof real.searchIndex>) => (args[0] === null && wholeIndexes.n++, real.searchIndex(...args)),
  };
});

/** The data files of `model` made as a build over an empty prior makes them: every row new, by the build's one data stage. */
async function cleanFiles(model: Model, baseUrl: string): Promise<Map<string, string | Uint8Array>> {
  const events = [...model.events].sort(compareListOrder);
  const rows = renderRows(events, { site: model.site, baseUrl, pages: model.pages, media: model.media });
  const data = eventData({ rows, values: columnValuesFromRows(events, rows), order: null, previous: null, timezone: model.site.timezone, ids: events.map((e) => e.id), partRows: EVENT_PART_ROWS, calendar: calendarData });
  const files = new Map<string, string | Uint8Array>([...splitParts(rows.lineBytes, rows.starts, partFirsts(data.cut)).map((part, i) => [eventPartFile(data.cut[i].name), part] as const), ...data.files]);
  files.set(DATA_FILES.categories, toJson(model.categories.map(renderCategory)));
  for (const [rel, text] of Object.entries(await buildAutocompleteFiles(model.directory))) files.set(`${AUTOCOMPLETE_DIR}/${rel}`, text);
  return files;
}

const root = tempDir('aula-memory-build-');
afterAll(() => removeDir(root));

interface Editor {
  content: string;
  pick<T>(list: readonly T[]): T;
  serial: number;
  /** an edit to undo at the next step (a broken file, another zone) */
  undo: { file: string; text: string } | null;
}

const read = (ed: Editor, rel: string) => readFileSync(join(ed.content, rel), 'utf8');
const write = (ed: Editor, rel: string, text: string) => {
  mkdirSync(dirname(join(ed.content, rel)), { recursive: true });
  writeFileSync(join(ed.content, rel), text);
};
const under = (ed: Editor, folder: string) => listFiles(join(ed.content, folder)).map((f) => `${folder}/${f}`);

function editLine(ed: Editor, rel: string, pattern: RegExp, replace: (line: string) => string): void {
  const text = read(ed, rel);
  const matches = [...text.matchAll(pattern)];
  if (matches.length === 0) return;
  const m = ed.pick(matches);
  write(ed, rel, text.slice(0, m.index) + replace(m[0]) + text.slice(m.index! + m[0].length));
}

/** Each edit returns the paths a watcher reports for it (a new folder: the folder). */
const EDITS: Record<string, (ed: Editor) => string[]> = {
  'change an event': (ed) => {
    const rel = ed.pick(under(ed, 'events'));
    editLine(ed, rel, /^(?: {2})?title: .*$/gm, (line) => `${line.startsWith(' ') ? '  ' : ''}title: Geändert ${ed.serial++}`);
    return [rel];
  },
  'move an event': (ed) => {
    const rel = ed.pick(under(ed, 'events'));
    editLine(ed, rel, /^(?: {2})?start: .*$/gm, (line) => `${line.startsWith(' ') ? '  ' : ''}start: 2025-0${1 + (ed.serial++ % 9)}-11T09:00:00`);
    return [rel];
  },
  'add an event': (ed) => {
    const n = ed.serial++;
    const rel = `events/2025/06/added-${n}.md`;
    write(ed, rel, `---\nid: ${900_000 + n}\ntitle: Neu ${n}\nstart: 2025-06-0${1 + (n % 9)}T10:00:00\nend: 2025-06-0${1 + (n % 9)}T12:00:00\nlast_modified: 2025-05-01T08:00:00\ncategories:\n  - 1\n---\nText ${n}.\n`);
    return [rel];
  },
  'add an event in a new folder': (ed) => {
    const n = ed.serial++;
    write(ed, `events/neu-${n}/fest.yaml`, `id: ${800_000 + n}\ntitle: Fest ${n}\nstart: 2026-07-01T10:00\nend: 2026-07-01T12:00\nlast_modified: 2026-05-20T12:00:00Z\n`);
    return [`events/neu-${n}`];
  },
  'delete an event file': (ed) => {
    const rel = ed.pick(under(ed, 'events'));
    unlinkSync(join(ed.content, rel));
    return [rel];
  },
  'rename an event file': (ed) => {
    const rel = ed.pick(under(ed, 'events'));
    const to = rel.replace(/([^/]+)$/, `renamed-${ed.serial++}-$1`);
    renameSync(join(ed.content, rel), join(ed.content, to));
    return [rel, to];
  },
  'remove a folder of events': (ed) => {
    const folder = dirname(ed.pick(under(ed, 'events').filter((f) => f.split('/').length > 2)));
    rmSync(join(ed.content, folder), { recursive: true });
    return [folder];
  },
  'change a directory object': (ed) => {
    const rel = ed.pick(under(ed, 'directory'));
    editLine(ed, rel, /^ {2}(?:last_name|title|name): .*$/gm, (line) => `${line.slice(0, line.indexOf(':'))}: Neu${ed.serial++}`);
    return [rel];
  },
  'change a category': (ed) => {
    editLine(ed, 'categories.yaml', /^ {2}title: .*$/gm, () => `  title: Kategorie ${ed.serial++}`);
    return ['categories.yaml'];
  },
  'change a page': (ed) => {
    editLine(ed, 'pages.yaml', /^ {2}title: .*$/gm, () => `  title: Seite ${ed.serial++}`);
    return ['pages.yaml'];
  },
  'change site.yaml': (ed) => {
    const text = read(ed, 'site.yaml');
    ed.undo = { file: 'site.yaml', text };
    write(ed, 'site.yaml', text.replace(/^timezone: .*$/m, `timezone: ${ed.pick(['UTC', 'America/New_York'])}`).replace(/^page_size: .*$/m, 'page_size: 7'));
    return ['site.yaml'];
  },
  'break a file': (ed) => {
    const rel = ed.pick([...under(ed, 'events'), ...under(ed, 'directory')]);
    ed.undo = { file: rel, text: read(ed, rel) };
    write(ed, rel, read(ed, rel).replace(/^(?: {2})?id: .*$/m, (l) => `${l.slice(0, l.indexOf(':'))}: [unclosed`));
    return [rel];
  },
  'duplicate an event id': (ed) => {
    const rel = ed.pick(under(ed, 'events').filter((f) => f.endsWith('.md')));
    const copy = rel.replace(/\.md$/, `-copy-${ed.serial++}.md`);
    ed.undo = { file: copy, text: '' };
    write(ed, copy, read(ed, rel));
    return [copy];
  },
  'a file that is no content': (ed) => {
    write(ed, `events/notes-${ed.serial++}.txt`, 'not an event');
    return [`events/notes-${ed.serial - 1}.txt`];
  },
};

const problemLines = (problems: readonly Parameters<typeof formatProblem>[0][]) => problems.map(formatProblem);

describe('aula dev in memory', () => {
  it('after every random edit, serves what a clean load and render of the content makes', async () => {
    const content = join(root, 'content');
    await generateContent({ events: 150, directory: 200, seed: 3, outDir: content });
    const rnd = mulberry32(7);
    const ed: Editor = { content, pick: (list) => list[Math.floor(rnd() * list.length)], serial: 1, undo: null };
    const state = new ContentState(content);
    const memory = new MemoryBuild();
    const names = Object.keys(EDITS);
    let reused = 0;
    for (let step = 0; step < 40; step++) {
      let changed: string[] = [];
      let did = 'first load';
      if (step > 0) {
        if (ed.undo) {
          const { file, text } = ed.undo;
          if (text === '') unlinkSync(join(content, file));
          else write(ed, file, text);
          changed = [file];
          did = `undo ${file}`;
          ed.undo = null;
        } else {
          const name = step <= names.length ? names[step - 1] : ed.pick(names);
          changed = EDITS[name](ed);
          did = `${name}: ${changed.join(', ')}`;
        }
      }
      await state.update(changed);
      const kept = await state.model();
      const clean = await loadContent(content);
      expect(problemLines(kept.problems), `step ${step}, ${did}`).toEqual(problemLines(clean.problems));
      expect(kept.model === null, `step ${step}, ${did}`).toBe(clean.model === null);
      if (!kept.model || !clean.model) continue;
      const baseUrl = normalizeBaseUrl(clean.model.site.base_url);
      const made = await memory.make(kept.model, baseUrl);
      if (step > 0) reused += made.stats.reused;
      const want = await cleanFiles(clean.model, baseUrl);
      const bytes = (rel: string) => Buffer.from(made.files.bytes(rel));
      const wanted = (rel: string) => Buffer.from(want.get(rel)!);
      const parts = [...want.keys()].filter((rel) => rel.startsWith('data/events/') || rel.startsWith('data/calendar/'));
      expect(parts.length).toBeGreaterThan(0);
      // data/search.bin read at two steps of three: made when first read, then spliced over the last make's (or not, unread)
      const search = step % 3 === 0 ? [] : [DATA_FILES.search];
      for (const rel of [...parts, DATA_FILES.categories, ...COLUMN_FILES, ...search]) {
        expect(bytes(rel).equals(wanted(rel)), `step ${step}, ${did}: ${rel}`).toBe(true);
      }
      const index = `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`;
      expect(made.files.text(index) === wanted(index).toString(), `step ${step}, ${did}: ${index}`).toBe(true);
      expect(made.dataset.manifest.counts.events, `step ${step}`).toBe(clean.model.events.length);
      expect(made.dataset.manifest.built_at, `step ${step}, ${did}`).toBe(new Date(newestOf(clean.model.events)).toISOString());
    }
    // the rows of unchanged events were taken over, not rendered again
    expect(reused).toBeGreaterThan(1000);
  });

  it('takes the rows and the newest last_modified of the events that stay (the same records) over, the newest one gone too', async () => {
    const content = join(root, 'identity');
    await generateContent({ events: 60, directory: 20, seed: 5, outDir: content });
    const { model } = await loadContent(content);
    const memory = new MemoryBuild();
    const baseUrl = normalizeBaseUrl(model!.site.base_url);
    offsetChecks.n = 0;
    wholeIndexes.n = 0;
    const first = await memory.make(model!, baseUrl);
    expect(first.stats.rendered).toBe(60);
    expect(offsetChecks.n).toBe(0);
    // the search index made when first searched, once, and spliced by the makes after it
    expect(wholeIndexes.n).toBe(0);
    expect(first.dataset.search.rows).toBe(60);
    first.files.bytes(DATA_FILES.search);
    expect(wholeIndexes.n).toBe(1);
    const newest = model!.events.reduce((a, b) => (b.last_modified > a.last_modified ? b : a));
    const rest = model!.events.filter((e) => e !== newest);
    const gone = await memory.make({ ...model!, events: rest }, baseUrl);
    expect([gone.stats.rendered, gone.stats.reused]).toEqual([0, 59]);
    expect(gone.dataset.manifest.built_at).toBe(new Date(newestOf(rest)).toISOString());
    // one record replaced where it stands, one added in front: those two rendered, the rest taken over
    const edited = rest.map((e, i) => (i === 30 ? { ...e, title: 'Edited' } : e));
    const next = await memory.make({ ...model!, events: [{ ...newest, id: -1 }, ...edited] }, baseUrl);
    expect([next.stats.rendered, next.stats.reused]).toEqual([2, 58]);
    expect(next.dataset.manifest.built_at).toBe(new Date(newest.last_modified).toISOString());
    next.files.bytes(DATA_FILES.search);
    expect(wholeIndexes.n).toBe(1);
  });
});
