// The query kinds of the bench and their value pools. Every distinct value comes from the
// generated data (real title substrings, real start dates, real ids, real name prefixes), so the
// server does real work on each request and a response cache cannot carry the distinct mode.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ORDER_FIELDS } from '../src/query/events/ordering/ordering-param.ts';
import { mulberry32 } from '../src/util/mulberry32.ts';
import { parseManifest } from '../src/store/format/manifest.ts';
import { readColumns } from '../src/store/read/column-files.ts';
import { directorySource } from '../src/store/read/dist-source.ts';

/** Which target a kind's distinct mode is held to (see TARGETS in report.ts). */
export type Group = 'pages' | 'filters' | 'expand' | 'substring' | 'regex' | 'autocomplete' | 'detail' | 'ordering' | 'search' | 'search-combined';

export interface QueryKind {
  key: string;
  label: string;
  group: Group;
  /** the one URL of repeated mode */
  repeated: string;
  /** distinct mode: each path is a different query; cycled if the run outlasts the pool */
  distinct: string[];
}

export interface QuerySet {
  kinds: QueryKind[];
  /** raw `q` values of 1–3 words, for the in-process autocomplete benchmark */
  autocompleteQueries: string[];
  eventCount: number;
  directorySampled: number;
}

type Rng = () => number;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
/** icontains/istartswith/iregex fold case: sending a mix makes the server fold too */
const randomCase = (rng: Rng, text: string) => (rng() < 0.5 ? text.toLowerCase() : text);
const q = encodeURIComponent;

/** Up to `size` different values from `make`; gives up after a bounded number of tries. */
function pool(size: number, make: () => string | undefined): string[] {
  const seen = new Set<string>();
  for (let tries = 0; seen.size < size && tries < size * 20; tries++) {
    const value = make();
    if (value !== undefined) seen.add(value);
  }
  return [...seen];
}

interface Columns {
  id: number[];
  time: { start: (number | null)[] };
  text: { title: (string | null)[]; location: (string | null)[] };
  dfp_points: (number | null)[];
  bool: { register: (0 | 1)[] };
}

/** The columns the pools draw from, as the server loads them (data/columns/). */
function columnsOf(distDir: string): Columns {
  const manifest = parseManifest(readFileSync(join(distDir, 'manifest.json'), 'utf8'), 'manifest.json');
  const table = readColumns(directorySource(distDir), manifest.counts.events);
  const { columns: c, length } = table;
  const strings = (col: { at(row: number): string | null }) => Array.from({ length }, (_, row) => col.at(row));
  const numbers = (a: Float64Array) => Array.from(a, (v) => (v === v ? v : null));
  return {
    id: Array.from(c.id),
    time: { start: numbers(c.time.start) },
    text: { title: strings(c.text.title), location: strings(c.text.location) },
    dfp_points: numbers(c.dfp_points),
    bool: { register: Array.from(c.bool.register) as (0 | 1)[] },
  };
}

const EVENTS = '/v1/cms/event/';
const AUTOCOMPLETE = '/v1/api/autocomplete/';
const PAGE = 20;

/** `YYYY-MM-DDTHH:MM:SSZ`, a form the API's timestamp filters accept */
const isoZ = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

export function buildQuerySet(options: { distDir: string; contentDir: string; seed: number; poolSize: number }): QuerySet {
  const { distDir, contentDir, seed, poolSize } = options;
  const rng = mulberry32(seed);
  const cols = columnsOf(distDir);
  const count = cols.id.length;
  const titles = cols.text.title.filter((t): t is string => typeof t === 'string' && t.length > 0);
  const locations = [...new Set(cols.text.location.filter((t): t is string => typeof t === 'string' && t.length > 0))];
  const starts = cols.time.start.filter((t): t is number => typeof t === 'number');
  const randomOffset = (lo: number, hi: number) => int(rng, Math.max(0, lo), Math.max(0, hi));

  const kinds: QueryKind[] = [];
  const add = (key: string, label: string, group: Group, repeated: string, distinct: string[]) => {
    kinds.push({ key, label, group, repeated, distinct: distinct.length > 0 ? distinct : [repeated] });
  };

  // Default list: the first page is a static file's content; any other offset is not.
  add('page', 'default list (first page / any offset)', 'pages', EVENTS,
    pool(poolSize, () => `${EVENTS}?limit=${PAGE}&offset=${randomOffset(1, count - PAGE)}`));

  // Deep pages: where a list walked from the start would be slowest.
  const deepFrom = count - Math.max(1000, Math.floor(count / 10));
  add('deep', 'deep pages (offset near the end)', 'pages', `${EVENTS}?limit=${PAGE}&offset=${Math.max(0, count - PAGE)}`,
    pool(poolSize, () => `${EVENTS}?limit=${PAGE}&offset=${randomOffset(deepFrom, count - PAGE)}`));

  const substring = (): string | undefined => {
    const chars = Array.from(pick(rng, titles));
    const len = int(rng, 3, 8);
    if (chars.length < len) return undefined;
    const start = int(rng, 0, chars.length - len);
    const text = chars.slice(start, start + len).join('').trim();
    return text.length >= 3 ? randomCase(rng, text) : undefined;
  };
  const icontains = pool(poolSize, substring).map((s) => `${EVENTS}?title__icontains=${q(s)}`);
  add('icontains', 'title__icontains', 'substring', icontains[0], icontains);

  const prefix = (): string | undefined => {
    const chars = Array.from(pick(rng, locations));
    const text = chars.slice(0, int(rng, Math.min(2, chars.length), Math.min(chars.length, 12))).join('');
    return text.trim().length > 0 ? randomCase(rng, text) : undefined;
  };
  const istartswith = locations.length > 0 ? pool(poolSize, prefix).map((s) => `${EVENTS}?location__istartswith=${q(s)}`) : [];
  add('istartswith', 'location__istartswith', 'substring', istartswith[0] ?? `${EVENTS}?location__istartswith=a`, istartswith);

  const HOUR = 3_600_000;
  const range = (): string | undefined => {
    if (starts.length === 0) return undefined;
    const from = pick(rng, starts) - int(rng, 0, 24) * HOUR;
    const to = from + int(rng, 1, 30 * 24) * HOUR;
    return `${EVENTS}?start__gte=${q(isoZ(from))}&start__lt=${q(isoZ(to))}`;
  };
  const ranges = pool(poolSize, range);
  add('range', 'start__gte + start__lt', 'filters', ranges[0] ?? `${EVENTS}?start__gte=2025-01-01`, ranges);

  // dfp_points takes few values, so the page offset varies too; offsets stay within each
  // combination's real match count so every answer carries events.
  const matches = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const points = cols.dfp_points[i];
    if (points === null) continue;
    for (const reg of [0, 1]) {
      if (cols.bool.register[i] !== reg) continue;
      // every threshold up to this row's points matches it
      for (let t = 0; t <= points; t++) matches.set(`${t}/${reg}`, (matches.get(`${t}/${reg}`) ?? 0) + 1);
    }
  }
  const realPoints = [...new Set(cols.dfp_points.filter((p): p is number => p !== null))];
  const dfp = (): string | undefined => {
    if (realPoints.length === 0) return undefined;
    const points = pick(rng, realPoints);
    const reg = rng() < 0.5 ? 1 : 0;
    const n = matches.get(`${points}/${reg}`) ?? 0;
    const offset = randomOffset(0, n - PAGE);
    return `${EVENTS}?dfp_points__gte=${points}&register=${reg ? 'true' : 'false'}&limit=${PAGE}&offset=${offset}`;
  };
  const dfps = pool(poolSize, dfp);
  add('dfp', 'dfp_points__gte + register', 'filters', dfps[0] ?? `${EVENTS}?dfp_points__gte=1&register=true`, dfps);

  // Patterns from real title words: letters only, so nothing needs escaping.
  const words = (title: string) => title.match(/\p{L}{3,}/gu) ?? [];
  const regex = (): string | undefined => {
    const w = words(pick(rng, titles));
    if (w.length === 0) return undefined;
    const a = pick(rng, w);
    const form = int(rng, 0, 2);
    let pattern: string;
    if (form === 0) pattern = `^${a.slice(0, int(rng, 3, a.length))}`;
    else if (form === 1) {
      if (w.length < 2) return undefined;
      const i = int(rng, 0, w.length - 2);
      pattern = `${w[i]}.*${w[int(rng, i + 1, w.length - 1)]}`;
    } else {
      const other = words(pick(rng, titles));
      if (other.length === 0) return undefined;
      pattern = `(${a}|${pick(rng, other)})$`;
    }
    return `${EVENTS}?title__iregex=${q(randomCase(rng, pattern))}`;
  };
  const regexes = pool(poolSize, regex);
  add('iregex', 'title__iregex', 'regex', regexes[0] ?? `${EVENTS}?title__iregex=a`, regexes);

  add('expand', 'expand=categories', 'expand', `${EVENTS}?expand=categories`,
    pool(poolSize, () => `${EVENTS}?expand=categories&limit=${PAGE}&offset=${randomOffset(1, count - PAGE)}`));

  // ordering (issue 36): any orderable field, either direction, a page anywhere in the list
  const ordering = () => `${EVENTS}?ordering=${rng() < 0.5 ? '-' : ''}${pick(rng, ORDER_FIELDS)}&limit=${PAGE}&offset=${randomOffset(0, count - PAGE)}`;
  add('ordering', 'ordering (random field, direction, offset)', 'ordering', `${EVENTS}?ordering=title&offset=40`, pool(poolSize, ordering));

  // search: 1–3 words as people type them, drawn from the titles and the bodies (a part's worth)
  const searchWords = [...new Set([...titles, ...bodyTexts(distDir)].flatMap((t) => t.match(/\p{L}{3,}/gu) ?? []))];
  const terms = () => Array.from({ length: int(rng, 1, 3) }, () => randomCase(rng, pick(rng, searchWords))).join(' ');
  const searches = searchWords.length > 0 ? pool(poolSize, () => `${EVENTS}?search=${q(terms())}`) : [];
  add('search', 'search (1–3 words from titles and bodies)', 'search', searches[0] ?? `${EVENTS}?search=kurs`, searches);
  // …with a filter and an ordering
  const filters = [
    () => `start__gte=${q(isoZ(pick(rng, starts)))}`,
    () => `register=${rng() < 0.5 ? 'true' : 'false'}`,
    () => `dfp_points__gte=${int(rng, 1, 8)}`,
    () => `end__lt=${q(isoZ(pick(rng, starts)))}`,
  ];
  const combined = () =>
    `${EVENTS}?search=${q(terms())}&${pick(rng, filters)()}&ordering=${rng() < 0.5 ? '-' : ''}${pick(rng, ORDER_FIELDS)}`;
  const combinedUrls = searchWords.length > 0 && starts.length > 0 ? pool(poolSize, combined) : [];
  add('search+', 'search + a filter + ordering', 'search-combined', combinedUrls[0] ?? `${EVENTS}?search=kurs&register=true&ordering=start`, combinedUrls);

  const ids = cols.id;
  add('detail', 'detail /v1/cms/event/<id>/', 'detail', `${EVENTS}${ids[0]}/`,
    pool(poolSize, () => `${EVENTS}${pick(rng, ids)}/`));

  const names = directoryWords(contentDir);
  const autocompleteQueries: string[] = [];
  for (const n of [1, 2, 3] as const) {
    const candidates = names.filter((w) => w.length >= n);
    const make = (): string | undefined => {
      const w = pick(rng, candidates);
      const start = int(rng, 0, w.length - n);
      const window = w.slice(start, start + n);
      // type-ahead: the last word is usually still being typed
      const last = window[n - 1];
      window[n - 1] = last.slice(0, int(rng, Math.min(2, last.length), last.length));
      return randomCase(rng, window.join(' '));
    };
    const values = candidates.length > 0 ? pool(poolSize, make) : [];
    autocompleteQueries.push(...values.slice(0, 2000));
    const urls = values.map((v) => `${AUTOCOMPLETE}?q=${q(v)}`);
    add(`ac${n}`, `autocomplete, ${n} word${n > 1 ? 's' : ''}`, 'autocomplete', urls[0] ?? `${AUTOCOMPLETE}?q=a`, urls);
  }

  return { kinds, autocompleteQueries, eventCount: count, directorySampled: names.length };
}

/** The text of the bodies of the first part of the event rows (about 1,024 events): words to search for. */
function bodyTexts(distDir: string): string[] {
  let lines: string[];
  try {
    const first = JSON.parse(readFileSync(join(distDir, 'manifest.json'), 'utf8')).event_parts[0].name;
    lines = readFileSync(join(distDir, `data/events/${first}.jsonl`), 'utf8').split('\n');
  } catch {
    return [];
  }
  return lines.filter((l) => l !== '').map((l) => String((JSON.parse(l) as { body: unknown }).body ?? '').replace(/<[^>]*>/g, ' '));
}

interface DirectoryRecord {
  title?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  title_after?: string | null;
  name?: string | null;
}

/**
 * The words a person would type for each directory object, in display order. Read from a spread
 * of the generated YAML files rather than all of them: a few thousand objects are plenty of real
 * names, and parsing 200k objects with `yaml` would cost the bench tens of seconds.
 */
function directoryWords(contentDir: string, filesPerModel = 8): string[][] {
  const root = join(contentDir, 'directory');
  const out: string[][] = [];
  let folders: string[];
  try {
    folders = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return out;
  }
  for (const folder of folders) {
    const files = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .sort();
    const step = Math.max(1, Math.floor(files.length / filesPerModel));
    for (let i = 0; i < files.length && i / step < filesPerModel; i += step) {
      const parsed: unknown = parse(readFileSync(join(root, folder, files[i]), 'utf8'));
      const records = (Array.isArray(parsed) ? parsed : [parsed]) as DirectoryRecord[];
      for (const r of records) {
        if (typeof r !== 'object' || r === null) continue;
        const parts = r.name ? [r.name] : [r.title, r.first_name, r.last_name, r.title_after];
        const w = parts.filter((p): p is string => typeof p === 'string').join(' ').split(/\s+/).filter((x) => x.length > 0);
        if (w.length > 0) out.push(w);
      }
    }
  }
  return out;
}
