import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadContent } from '../content/load.ts';
import { DIRECTORY_MODELS } from '../model/types.ts';
import { generateContent, type GenerateOptions } from './content-generator.ts';
import { directoryCounts } from './directory-generator.ts';

// Every key of the events table in content-format.md.
const EVENT_KEYS = [
  'id', 'title', 'start', 'end', 'allday', 'url', 'link', 'page', 'categories', 'header_image', 'media',
  'related_media', 'organizer', 'location', 'contact', 'email', 'attending_fees_info', 'teaser', 'register',
  'attending_fees', 'registration_end', 'dfp_points', 'last_modified', 'keywords', 'description', 'language',
  'gallery', 'contact_box', 'groups', 'related_links',
];
const EXTENSION_MIMETYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
};

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aula-gen-test-'));
  tempDirs.push(dir);
  return dir;
}

async function generate(opts: Omit<GenerateOptions, 'outDir'>, outDir = tempDir()): Promise<string> {
  await generateContent({ ...opts, outDir });
  return outDir;
}

/** Relative paths of all files below `root`, sorted. */
function walk(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...walk(root, path));
    else out.push(path);
  }
  return out.sort();
}

function readTree(root: string): Map<string, Buffer> {
  return new Map(walk(root).map((path) => [path, readFileSync(join(root, path))]));
}

type Obj = Record<string, unknown>;

interface ParsedEvent {
  file: string;
  fields: Obj;
  /** Markdown for .md files, HTML for YAML/JSON */
  body: string;
}

/** Objects of a YAML/JSON file that may hold one object or a list. */
function objectsIn(root: string, path: string): Obj[] {
  const text = readFileSync(join(root, path), 'utf8');
  const value: unknown = path.endsWith('.json') ? JSON.parse(text) : parse(text);
  return (Array.isArray(value) ? value : [value]) as Obj[];
}

function readEvents(root: string): ParsedEvent[] {
  const events: ParsedEvent[] = [];
  for (const path of walk(root).filter((p) => p.startsWith('events/'))) {
    if (path.endsWith('.md')) {
      const text = readFileSync(join(root, path), 'utf8');
      const match = /^---\n([\s\S]*?\n)---\n([\s\S]*)$/.exec(text);
      expect(match, `${path} has front matter`).not.toBeNull();
      events.push({ file: path, fields: parse(match![1]) as Obj, body: match![2] });
    } else {
      for (const fields of objectsIn(root, path)) {
        const { body, ...rest } = fields;
        expect(typeof body, `${path} body`).toBe('string');
        events.push({ file: path, fields: rest, body: body as string });
      }
    }
  }
  return events;
}

function readDirectory(root: string): Obj[] {
  return walk(root)
    .filter((p) => p.startsWith('directory/'))
    .flatMap((path) => objectsIn(root, path));
}

function readMedia(root: string): Obj[] {
  return walk(root)
    .filter((p) => p === 'media.yaml' || (p.startsWith('media/') && p.endsWith('.yaml')))
    .flatMap((path) => objectsIn(root, path));
}

// Test-side timestamp reading, independent of the generator: Intl for the zone rules.
const viennaParts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Vienna', timeZoneName: 'longOffset' });

function viennaOffsetMinutes(instant: number): number {
  const name = viennaParts.formatToParts(instant).find((p) => p.type === 'timeZoneName')!.value; // "GMT+02:00"
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Milliseconds since the epoch; naive times are Vienna wall time (and must be unambiguous). */
function instantOf(text: string): number {
  const naive = NAIVE.exec(text);
  if (!naive) {
    const ms = Date.parse(text);
    expect(Number.isNaN(ms), `timestamp ${text}`).toBe(false);
    return ms;
  }
  const [, y, mo, d, h, mi, s] = naive.map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi, s || 0);
  const candidates = [60, 120].map((off) => wall - off * 60_000).filter((utc) => wall - viennaOffsetMinutes(utc) * 60_000 === utc);
  expect(candidates, `${text} names exactly one instant in Europe/Vienna`).toHaveLength(1);
  return candidates[0];
}

function allTimestamps(event: Obj): string[] {
  const stamps = [event.start, event.end, event.last_modified, event.registration_end];
  for (const rm of (event.related_media as Obj[] | undefined) ?? []) stamps.push(rm.datetime);
  return stamps.filter((s): s is string => typeof s === 'string');
}

function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('generateContent', () => {
  const small = { events: 150, directory: 400, seed: 7 };
  let root: string;
  let result: { files: number; bytes: number };
  let events: ParsedEvent[];
  let directory: Obj[];
  let media: Obj[];

  beforeAll(async () => {
    root = tempDir();
    result = await generateContent({ ...small, outDir: root });
    events = readEvents(root);
    directory = readDirectory(root);
    media = readMedia(root);
  });

  it('writes byte-identical trees for the same seed', async () => {
    const again = await generate(small);
    const a = readTree(root);
    const b = readTree(again);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [path, bytes] of a) expect(b.get(path)!.equals(bytes), path).toBe(true);
  });

  // The bundled content/ is `npm run gen:sample`; a refactor of the generator must not change it.
  it('regenerates the bundled sample content byte for byte', async () => {
    const sample = readTree(await generate({ events: 200, directory: 1000, seed: 1 }));
    const bundled = readTree(join(import.meta.dirname, '..', '..', 'content'));
    expect([...sample.keys()].sort()).toEqual([...bundled.keys()].sort());
    for (const [path, bytes] of sample) expect(bundled.get(path)!.equals(bytes), path).toBe(true);
  });

  it('reports the files and bytes it wrote', () => {
    const tree = readTree(root);
    expect(result.files).toBe(tree.size);
    expect(result.bytes).toBe([...tree.values()].reduce((sum, b) => sum + b.byteLength, 0));
  });

  it('writes different content for a different seed', async () => {
    const other = readTree(await generate({ ...small, seed: 8 }));
    const mine = readTree(root);
    const differing = [...mine].filter(([path, bytes]) => !other.get(path)?.equals(bytes));
    expect(differing.length).toBeGreaterThan(10);
  });

  it('writes the requested number of events in all three file forms', () => {
    expect(events).toHaveLength(small.events);
    const forms = new Set(events.map((e) => extname(e.file)));
    expect([...forms].sort()).toEqual(['.json', '.md', '.yaml']);
    const md = events.filter((e) => e.file.endsWith('.md')).length / events.length;
    expect(md).toBeGreaterThan(0.6);
    expect(md).toBeLessThan(0.85);
    for (const e of events.filter((e) => e.file.endsWith('.md'))) {
      expect(e.file).toMatch(new RegExp(`^events/\\d{4}/\\d{2}/${e.fields.id}-[a-z0-9-]+\\.md$`));
    }
  });

  it('uses every event key of the content format', () => {
    const seen = new Set(events.flatMap((e) => Object.keys(e.fields)));
    for (const key of EVENT_KEYS) expect(seen, key).toContain(key);
    const allowed = new Set([...EVENT_KEYS, 'extra']);
    for (const e of events) for (const key of Object.keys(e.fields)) expect(allowed, `${e.file}: ${key}`).toContain(key);
    for (const e of events) expect(e.body.trim(), e.file).not.toBe('');
  });

  it('gives unique ids', () => {
    expect(duplicates(events.map((e) => e.fields.id))).toEqual([]);
    expect(duplicates(media.map((m) => m.id))).toEqual([]);
    const relatedIds = events.flatMap((e) => ((e.fields.related_media as Obj[] | undefined) ?? []).map((rm) => rm.id));
    expect(relatedIds.length).toBeGreaterThan(0);
    expect(duplicates(relatedIds)).toEqual([]);
    expect(duplicates(directory.map((o) => `${o.model}/${o.id}`))).toEqual([]);
  });

  it('writes the requested number of directory objects, every model, in the intended mix', () => {
    expect(directory).toHaveLength(small.directory);
    const counts = directoryCounts(small.directory);
    for (const model of DIRECTORY_MODELS) {
      expect(counts[model]).toBeGreaterThan(0);
      expect(directory.filter((o) => o.model === model), model).toHaveLength(counts[model]);
    }
    const share = (models: string[]) => directory.filter((o) => models.includes(o.model as string)).length / directory.length;
    expect(share(['campus.Person', 'campus.Student', 'structure.Person'])).toBeCloseTo(0.45, 1);
    expect(share(['campus.Room', 'geo.Room'])).toBeCloseTo(0.35, 1);
    expect(share(['structure.Organization'])).toBeCloseTo(0.2, 1);
  });

  it('splits any total exactly and keeps every model once there are six objects', () => {
    for (const total of [0, 1, 5, 6, 7, 13, 999, 1000, 200_000]) {
      const counts = directoryCounts(total);
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(total);
      if (total >= 6) for (const model of DIRECTORY_MODELS) expect(counts[model], `${total} ${model}`).toBeGreaterThan(0);
    }
  });

  it('writes directory objects with the keys of their kind', () => {
    const keys: Record<string, string[]> = {
      person: ['title', 'first_name', 'last_name', 'title_after'],
      room: ['name', 'code', 'level_id', 'room_id'],
      organization: ['name'],
    };
    for (const o of directory) {
      const kind = (o.model as string).endsWith('.Room') ? 'room' : o.model === 'structure.Organization' ? 'organization' : 'person';
      const allowed = new Set(['model', 'id', 'presentation', 'keywords', 'extra', ...keys[kind]]);
      for (const key of Object.keys(o)) expect(allowed, `${o.model} ${o.id}: ${key}`).toContain(key);
      expect(typeof (kind === 'person' ? o.last_name : o.name)).toBe('string');
    }
    expect(directory.some((o) => Array.isArray(o.keywords))).toBe(true);
  });

  it('writes timestamps that are unambiguous, consistent and in range', () => {
    for (const { file, fields } of events) {
      for (const stamp of allTimestamps(fields)) {
        const naive = NAIVE.exec(stamp);
        if (naive) expect(['02', '03'], `${file}: ${stamp}`).not.toContain(naive[4]);
        const offset = /([+-]\d{2}):00$/.exec(stamp);
        if (offset) expect(viennaOffsetMinutes(instantOf(stamp)), `${file}: ${stamp}`).toBe(Number(offset[1]) * 60);
      }
      const start = instantOf(fields.start as string);
      expect(instantOf(fields.end as string), file).toBeGreaterThanOrEqual(start);
      if (typeof fields.registration_end === 'string') expect(instantOf(fields.registration_end), file).toBeLessThan(start);
      expect(start).toBeGreaterThanOrEqual(Date.UTC(2024, 11, 31, 23));
      expect(start).toBeLessThan(Date.UTC(2026, 11, 31, 23));
    }
    const forms = new Set(events.flatMap((e) => allTimestamps(e.fields)).map((s) => (s.endsWith('Z') ? 'Z' : NAIVE.test(s) ? 'naive' : 'offset')));
    expect([...forms].sort()).toEqual(['Z', 'naive', 'offset']);
  });

  it('starts all-day events at local midnight, and some events at the same time', () => {
    const allday = events.filter((e) => e.fields.allday === true);
    expect(allday.length / events.length).toBeGreaterThan(0.03);
    expect(allday.length / events.length).toBeLessThan(0.2);
    for (const e of allday) {
      const start = instantOf(e.fields.start as string);
      expect((start + viennaOffsetMinutes(start) * 60_000) % 86_400_000, e.file).toBe(0);
    }
    const starts = events.map((e) => instantOf(e.fields.start as string));
    expect(duplicates(starts).length).toBeGreaterThan(0);
  });

  it('references only pages, categories and media that exist', () => {
    const pages = objectsIn(root, 'pages.yaml');
    const pageIds = new Set(pages.map((p) => p.uid));
    const categoryIds = new Set(objectsIn(root, 'categories.yaml').map((c) => c.id));
    const mediaIds = new Set(media.map((m) => m.id));
    for (const { file, fields } of events) {
      if (fields.page != null) expect(pageIds, file).toContain(fields.page);
      for (const c of (fields.categories as number[] | undefined) ?? []) expect(categoryIds, file).toContain(c);
      if (fields.header_image != null) expect(mediaIds, file).toContain(fields.header_image);
      for (const m of (fields.media as number[] | undefined) ?? []) expect(mediaIds, file).toContain(m);
      for (const rm of (fields.related_media as Obj[] | undefined) ?? []) expect(mediaIds, file).toContain(rm.media);
    }
  });

  it('writes a page tree with two site roots, at least four levels deep, without cycles', () => {
    const pages = objectsIn(root, 'pages.yaml');
    const byUid = new Map(pages.map((p) => [p.uid, p]));
    expect(pages.filter((p) => p.is_siteroot === true && p.pid === 0)).toHaveLength(2);
    let deepest = 0;
    for (const page of pages) {
      let depth = 1;
      for (let p = page; p.pid !== 0; p = byUid.get(p.pid)!) {
        expect(byUid.has(p.pid), `parent of ${p.uid}`).toBe(true);
        expect(++depth).toBeLessThan(10);
      }
      deepest = Math.max(deepest, depth);
    }
    expect(deepest).toBeGreaterThanOrEqual(4);
  });

  it('writes site.yaml with all four keys', () => {
    expect(parse(readFileSync(join(root, 'site.yaml'), 'utf8'))).toEqual({
      base_url: 'http://127.0.0.1:8000',
      timezone: 'Europe/Vienna',
      page_size: 20,
      max_page_size: 1000,
    });
  });

  it('writes media records whose files agree with their size and mimetype', () => {
    expect(media.length).toBeGreaterThanOrEqual(50);
    const withFile = media.filter((m) => typeof m.file === 'string');
    expect(withFile.length).toBeGreaterThan(0);
    expect(withFile.some((m) => m.size === undefined) && withFile.some((m) => m.size !== undefined)).toBe(true);
    for (const m of withFile) {
      const bytes = readFileSync(join(root, m.file as string));
      if (m.size !== undefined) expect(m.size).toBe(bytes.byteLength);
      if (m.mimetype !== undefined) expect(m.mimetype).toBe(EXTENSION_MIMETYPES[extname(m.file as string)]);
    }
    for (const m of media.filter((m) => m.file === undefined)) {
      expect(typeof m.mimetype, `media ${m.id}`).toBe('string');
      expect(Number.isInteger(m.size), `media ${m.id}`).toBe(true);
    }
    const png = readFileSync(join(root, 'media/files/meduni-logo.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('replaces only what it owns when run again', async () => {
    const dir = await generate({ events: 60, directory: 100, seed: 3 });
    writeFileSync(join(dir, 'README.md'), 'kept');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'x.json'), '{}');
    await generate({ events: 20, directory: 30, seed: 4 }, dir);
    const fresh = readTree(await generate({ events: 20, directory: 30, seed: 4 }));
    const rerun = readTree(dir);
    expect(rerun.get('README.md')?.toString()).toBe('kept');
    expect(rerun.has('dist/x.json')).toBe(true);
    rerun.delete('README.md');
    rerun.delete('dist/x.json');
    expect([...rerun.keys()]).toEqual([...fresh.keys()]);
    for (const [path, bytes] of fresh) expect(rerun.get(path)!.equals(bytes), path).toBe(true);
  });

  it('handles tiny and empty requests', async () => {
    for (const size of [{ events: 0, directory: 0 }, { events: 1, directory: 1 }, { events: 3, directory: 7 }]) {
      const dir = await generate({ ...size, seed: 1 });
      expect(readEvents(dir)).toHaveLength(size.events);
      expect(readDirectory(dir)).toHaveLength(size.directory);
    }
  });

  it("in the 'lists' shape, writes every event into YAML lists of three, with longer bodies, that load", async () => {
    const dir = await generate({ events: 20, directory: 10, seed: 2, shape: 'lists' });
    const lists = walk(dir).filter((f) => f.startsWith('events/'));
    expect(lists.every((f) => f.endsWith('.yaml'))).toBe(true);
    expect(lists).toHaveLength(7);
    const { model, problems } = await loadContent(dir);
    expect(problems).toEqual([]);
    expect(model!.events).toHaveLength(20);
    const files = await generate({ events: 20, directory: 10, seed: 2 });
    const bodies = (m: NonNullable<typeof model>) => m.events.reduce((n, e) => n + e.body.length, 0);
    expect(bodies(model!)).toBeGreaterThan(1.5 * bodies((await loadContent(files)).model!));
  });

  it('rejects invalid options', async () => {
    await expect(generateContent({ events: -1, directory: 0, seed: 1, outDir: tempDir() })).rejects.toThrow(RangeError);
    await expect(generateContent({ events: 1.5, directory: 0, seed: 1, outDir: tempDir() })).rejects.toThrow(RangeError);
  });
});

describe('generated content and the loader', () => {
  it.each([1, 2, 3])('loads with zero problems (seed %i)', async (seed) => {
    const dir = await generate({ events: 300, directory: 600, seed });
    const { model, problems } = await loadContent(dir);
    expect(problems).toEqual([]);
    expect(model!.events).toHaveLength(300);
    expect(model!.directory).toHaveLength(600);
    expect(model!.pages.size).toBe(objectsIn(dir, 'pages.yaml').length);
    expect(model!.media.size).toBe(readMedia(dir).length);
    // The loader and this test read every timestamp as the same instant.
    const loaded = new Map(model!.events.map((e) => [e.id, e]));
    for (const { fields } of readEvents(dir)) {
      const event = loaded.get(fields.id as number)!;
      expect(event.start).toBe(instantOf(fields.start as string));
      expect(event.end).toBe(instantOf(fields.end as string));
      expect(event.last_modified).toBe(instantOf(fields.last_modified as string));
    }
  });
});
