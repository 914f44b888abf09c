// Seeded generator for a complete content folder (see shared/spec/content-format.md).
//
// Used for the bundled sample (`npm run gen:sample`) and by the benchmark at 100k events /
// 200k directory objects, so it streams: every file is written as soon as it is complete
// and nothing holds more than one batch of objects in memory.
//
// Determinism: every random choice comes from `Random` streams derived from the seed and a
// section label, iteration order is fixed, and YAML comes from one deterministic emitter
// (toYaml below). No clock, no Math.random(), no Intl (its tz data varies between Node builds).

import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DIRECTORY_MODELS, directoryKind, type DirectoryModel } from '../model/types.ts';
import { Random } from './random.ts';

export interface GenerateOptions {
  events: number;
  directory: number;
  seed: number;
  outDir: string;
}

export interface GenerateResult {
  files: number;
  bytes: number;
}

/** What generateContent() owns inside outDir; only these are removed before writing. */
export const GENERATED_DIRS = ['events', 'directory', 'media'] as const;
export const GENERATED_FILES = ['site.yaml', 'pages.yaml', 'categories.yaml', 'media.yaml'] as const;

export async function generateContent(opts: GenerateOptions): Promise<GenerateResult> {
  for (const [name, value] of [['events', opts.events], ['directory', opts.directory], ['seed', opts.seed]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  await clearGenerated(opts.outDir);
  const out = new TreeWriter(opts.outDir);

  writeSite(out);
  const pages = writePages(out, Random.derive(opts.seed, 'pages'));
  const categories = writeCategories(out);
  const media = writeMedia(out, Random.derive(opts.seed, 'media'));
  writeEvents(out, Random.derive(opts.seed, 'events'), opts.events, { pages, categories, media });
  writeDirectory(out, Random.derive(opts.seed, 'directory'), opts.directory);

  return { files: out.files, bytes: out.bytes };
}

async function clearGenerated(outDir: string): Promise<void> {
  const targets = [...GENERATED_DIRS, ...GENERATED_FILES].map((name) => join(outDir, name));
  await Promise.all(targets.map((target) => rm(target, { recursive: true, force: true })));
}

// ---------------------------------------------------------------------------------------
// Output

/**
 * Synchronous writes. For many small files writeFileSync was up to ~2× faster than
 * fs.promises.writeFile with 16–64 writes in flight (each open/write/close is a thread-pool
 * round trip); on a busy disk the two were close. Memory stays flat: nothing is queued.
 */
class TreeWriter {
  files = 0;
  bytes = 0;
  private readonly madeDirs = new Set<string>();

  constructor(private readonly root: string) {}

  write(relPath: string, content: string | Uint8Array): void {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const path = join(this.root, relPath);
    const dir = dirname(path);
    if (!this.madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    writeFileSync(path, data);
    this.files++;
    this.bytes += data.byteLength;
  }
}

// ---------------------------------------------------------------------------------------
// YAML output
//
// The `yaml` package needs ~200 µs per event front matter and ~60 µs per directory object,
// about 33 s of a 100k/200k run. This emitter writes the plain block style a person would
// (and the loader's fast reader understands) in a few µs. It only ever chooses a form whose
// meaning under the YAML 1.2 core schema is certain, quoting whenever in doubt;
// content-generator.test.ts checks `parse(toYaml(x))` equals `x` on random values.

/** Characters that only appear escaped inside double quotes (controls, line separators, BOM). */
const NEEDS_ESCAPE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
const NEEDS_ESCAPE_GLOBAL = /[\x7f-\x9f\u2028\u2029\ufeff]/g;
/** First characters a plain scalar may not start with (indicators, and `-?:` to stay simple). */
const INDICATOR_FIRST = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** Core-schema non-strings (null, bool, numbers) and YAML 1.1 booleans, in case of an old reader. */
const NOT_A_STRING = /^(?:~|null|true|false|yes|no|on|off|y|n|[-+]?\.?[0-9].*|[-+]?\.(?:inf|nan))$/i;
/** ISO 8601 timestamps are strings in the core schema and are most readable unquoted. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function toYaml(value: unknown): string {
  if (isNonEmptyArray(value)) return yamlSequence(value, '');
  if (isNonEmptyObject(value)) return yamlMapping(value, '');
  return `${yamlScalar(value, '  ')}\n`;
}

function isNonEmptyArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0;
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}

/** Lines of a block mapping, each starting with `indent`, each ending in a line feed. */
function yamlMapping(map: Record<string, unknown>, indent: string): string {
  let out = '';
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (value === undefined) continue; // as in JSON: an absent key
    const keyText = SIMPLE_KEY.test(key) && !NOT_A_STRING.test(key) ? key : quoted(key);
    out += `${indent}${keyText}:${yamlAfterKey(value, indent)}`;
  }
  return out;
}

function yamlAfterKey(value: unknown, indent: string): string {
  if (isNonEmptyArray(value)) return `\n${yamlSequence(value, `${indent}  `)}`;
  if (isNonEmptyObject(value)) return `\n${yamlMapping(value, `${indent}  `)}`;
  return ` ${yamlScalar(value, `${indent}  `)}\n`;
}

/** A block sequence; collections inside an item start on the dash's line (`- id: 1`). */
function yamlSequence(items: unknown[], indent: string): string {
  const inner = `${indent}  `;
  let out = '';
  for (const item of items) {
    if (isNonEmptyObject(item)) out += `${indent}- ${yamlMapping(item, inner).slice(inner.length)}`;
    else if (isNonEmptyArray(item)) out += `${indent}- ${yamlSequence(item, inner).slice(inner.length)}`;
    else out += `${indent}- ${yamlScalar(item === undefined ? null : item, inner)}\n`;
  }
  return out;
}

/** A scalar (or empty collection) on one line, or a literal block indented by `blockIndent`. */
function yamlScalar(value: unknown, blockIndent: string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan';
    if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
    return String(value);
  }
  if (typeof value === 'string') return yamlString(value, blockIndent);
  if (Array.isArray(value)) return '[]';
  if (typeof value === 'object') return '{}';
  throw new TypeError(`cannot write ${typeof value} as YAML`);
}

function yamlString(text: string, blockIndent: string): string {
  if (isPlainSafe(text)) return text;
  if (isLiteralSafe(text)) return `|-\n${text.split('\n').map((line) => (line === '' ? '' : blockIndent + line)).join('\n')}`;
  return quoted(text);
}

function isPlainSafe(text: string): boolean {
  if (text === '' || text.trim() !== text || NEEDS_ESCAPE.test(text)) return false;
  if (TIMESTAMP.test(text)) return true;
  if (INDICATOR_FIRST.test(text) || NOT_A_STRING.test(text)) return false;
  // `: ` would start a mapping, ` #` a comment, a final `:` a key.
  return !text.includes(': ') && !text.includes(' #') && !text.endsWith(':');
}

/** Multi-line text whose `|-` block reads back unchanged: no indentation or trailing-space games. */
function isLiteralSafe(text: string): boolean {
  if (!text.includes('\n') || NEEDS_ESCAPE.test(text.replaceAll('\n', ''))) return false;
  const lines = text.split('\n');
  return lines[0] !== '' && !/^\s/.test(lines[0]) && lines.at(-1) !== '' && lines.every((line) => line.trimEnd() === line);
}

/** JSON string syntax is valid YAML double-quoted syntax; a few more characters get escaped. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(NEEDS_ESCAPE_GLOBAL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// ---------------------------------------------------------------------------------------
// Time: wall-clock values in Europe/Vienna, kept as "floating" milliseconds
// (Date.UTC of the local fields), converted to instants only when an offset is written.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FIRST_DAY = Date.UTC(2025, 0, 1);
const DAYS_IN_RANGE = (Date.UTC(2026, 11, 31) - FIRST_DAY) / DAY + 1;

function lastSundayOf(year: number, month0: number): number {
  const lastDay = new Date(Date.UTC(year, month0 + 1, 0));
  return lastDay.getUTCDate() - lastDay.getUTCDay();
}

const summerTimeCache = new Map<number, [number, number]>();

/**
 * The EU rule (in force since 1996) for Europe/Vienna as a wall-clock range: summer time
 * from the last Sunday of March 03:00 to the last Sunday of October 02:00. The hours
 * 02:00–03:59 around both switches are never generated, so the gap and the repeated hour
 * never need resolving.
 */
function viennaOffsetHours(wall: number): 1 | 2 {
  const year = new Date(wall).getUTCFullYear();
  let range = summerTimeCache.get(year);
  if (!range) {
    range = [Date.UTC(year, 2, lastSundayOf(year, 2), 3), Date.UTC(year, 9, lastSundayOf(year, 9), 2)];
    summerTimeCache.set(year, range);
  }
  return wall >= range[0] && wall < range[1] ? 2 : 1;
}

export type TimestampForm = 'offset' | 'z' | 'z-millis' | 'naive-space' | 'naive-t' | 'naive-t-minutes';

const TIMESTAMP_FORMS: readonly (readonly [TimestampForm, number])[] = [
  ['offset', 40],
  ['z', 18],
  ['z-millis', 5],
  ['naive-space', 15],
  ['naive-t', 12],
  ['naive-t-minutes', 10],
];

const pad2 = (n: number): string => String(n).padStart(2, '0');

function isoFields(ms: number): string {
  // toISOString is "YYYY-MM-DDTHH:MM:SS.sssZ"; the first 19 characters are the fields.
  return new Date(ms).toISOString().slice(0, 19);
}

/** Writes a wall time in one of the ISO 8601 forms the content format accepts. */
function formatTimestamp(wall: number, form: TimestampForm): string {
  const hour = new Date(wall).getUTCHours();
  // Naive times are read as Vienna local time; in or next to a DST switch they would be
  // ambiguous or nonexistent, so those (never generated anyway) get an explicit offset.
  if (form.startsWith('naive') && (hour === 2 || hour === 3)) form = 'offset';
  const offset = viennaOffsetHours(wall);
  switch (form) {
    case 'offset':
      return `${isoFields(wall)}+${pad2(offset)}:00`;
    case 'z':
      return `${isoFields(wall - offset * HOUR)}Z`;
    case 'z-millis':
      return new Date(wall - offset * HOUR).toISOString();
    case 'naive-space':
      return isoFields(wall).replace('T', ' ');
    case 'naive-t':
      return isoFields(wall);
    case 'naive-t-minutes':
      // Dropping the seconds would change the instant, so only for whole minutes.
      return wall % 60_000 === 0 ? isoFields(wall).slice(0, 16) : isoFields(wall);
  }
}

function randomTimestamp(rng: Random, wall: number): string {
  return formatTimestamp(wall, rng.weighted(TIMESTAMP_FORMS));
}

/** A wall time on the given day with an hour in [fromHour, toHour], never 02:00–03:59. */
function wallOnDay(rng: Random, day: number, fromHour: number, toHour: number, withSeconds: boolean): number {
  const hour = rng.int(Math.max(fromHour, 4), toHour);
  const minute = withSeconds ? rng.int(0, 59) : rng.pick([0, 0, 0, 15, 30, 30, 45]);
  const second = withSeconds ? rng.int(0, 59) : 0;
  return FIRST_DAY + day * DAY + hour * HOUR + minute * 60_000 + second * 1000;
}

// ---------------------------------------------------------------------------------------
// site.yaml, pages.yaml, categories.yaml

function writeSite(out: TreeWriter): void {
  out.write(
    'site.yaml',
    toYaml({ base_url: 'http://127.0.0.1:8000', timezone: 'Europe/Vienna', page_size: 20, max_page_size: 1000 }),
  );
}

interface PageSpec {
  uid: number;
  pid: number;
  title: string;
  /** host name for site roots */
  domain?: string;
  /** relative weight as an event location in the page tree */
  weight: number;
}

// Two sites, nested up to four levels (root → section → subsection → leaf).
const PAGES: readonly PageSpec[] = [
  { uid: 1, pid: 0, title: 'Startseite', domain: 'www.meduni-beispiel.at', weight: 1 },
  { uid: 10, pid: 1, title: 'Veranstaltungen', weight: 4 },
  { uid: 11, pid: 10, title: 'Fortbildung', weight: 3 },
  { uid: 12, pid: 11, title: 'Ärztefortbildung', weight: 8 },
  { uid: 13, pid: 11, title: 'Pflegefortbildung', weight: 4 },
  { uid: 14, pid: 11, title: 'DFP-Kurse für Allgemeinmedizin', weight: 4 },
  { uid: 15, pid: 10, title: 'Kongresse & Tagungen', weight: 3 },
  { uid: 16, pid: 15, title: 'Jahrestagung 2025', weight: 2 },
  { uid: 17, pid: 15, title: 'Jahrestagung 2026', weight: 2 },
  { uid: 18, pid: 10, title: 'Öffentliche Vorträge', weight: 4 },
  { uid: 19, pid: 18, title: 'Mini Med Studium', weight: 3 },
  { uid: 20, pid: 1, title: 'Studium & Lehre', weight: 1 },
  { uid: 21, pid: 20, title: 'Lehrveranstaltungen', weight: 3 },
  { uid: 22, pid: 21, title: 'Übungen & Praktika', weight: 3 },
  { uid: 23, pid: 20, title: 'Prüfungstermine', weight: 2 },
  { uid: 24, pid: 1, title: 'Forschung', weight: 1 },
  { uid: 25, pid: 24, title: 'Forschungsseminare', weight: 3 },
  { uid: 26, pid: 25, title: 'Doktoratskolleg Gefäßbiologie', weight: 2 },
  { uid: 27, pid: 24, title: 'Kliniken & Institute', weight: 1 },
  { uid: 28, pid: 27, title: 'Universitätsklinik für Innere Medizin III', weight: 3 },
  { uid: 29, pid: 27, title: 'Institut für Physiologie', weight: 3 },
  { uid: 100, pid: 0, title: 'Campus Startseite', domain: 'campus.meduni-beispiel.at', weight: 1 },
  { uid: 101, pid: 100, title: 'Termine', weight: 3 },
  { uid: 102, pid: 101, title: 'Hörsaalprogramm', weight: 3 },
  { uid: 103, pid: 101, title: 'Bibliothek & Lernzentrum', weight: 1 },
  { uid: 104, pid: 103, title: 'Schulungen für Studierende', weight: 2 },
  { uid: 105, pid: 100, title: 'Gesundheit & Prävention', weight: 1 },
  { uid: 106, pid: 105, title: 'Öffentliche Gesundheitstage', weight: 2 },
  { uid: 107, pid: 100, title: 'Karriere', weight: 1 },
  { uid: 108, pid: 107, title: 'Weiterbildung für Führungskräfte', weight: 2 },
];

function writePages(out: TreeWriter, rng: Random): readonly PageSpec[] {
  out.write('pages.yaml', toYaml(PAGES.map((page) => pageNode(rng, page))));
  return PAGES;
}

function pageNode(rng: Random, page: PageSpec): Record<string, unknown> {
  const node: Record<string, unknown> = { uid: page.uid, pid: page.pid, title: page.title };
  if (page.domain) {
    node.is_siteroot = true;
    node.domains = [page.domain];
    node.uri = `https://${page.domain}/`;
  } else {
    // Defaults are spelled out on some nodes (as a CMS export would) and left out on others.
    if (rng.chance(0.5)) node.is_siteroot = false;
    if (rng.chance(0.5)) node.domains = [];
    if (rng.chance(0.5)) node.uri = null;
  }
  return node;
}

interface CategorySpec {
  id: number;
  title: string;
  /** further keys, which the build keeps and shows in the expanded form */
  more?: Record<string, unknown>;
}

// Deliberately not in id order: the model sorts; the further keys must survive.
const CATEGORIES: readonly CategorySpec[] = [
  { id: 1, title: 'Fortbildung', more: { slug: 'fortbildung', color: '#00529b' } },
  { id: 2, title: 'Vortrag', more: { slug: 'vortrag' } },
  { id: 3, title: 'Kongress', more: { slug: 'kongress', color: '#b3001b', sort: 30 } },
  { id: 4, title: 'Workshop' },
  { id: 5, title: 'Öffentliche Veranstaltung', more: { slug: 'oeffentliche-veranstaltung', color: '#5a8f29' } },
  { id: 7, title: 'Ringvorlesung' },
  { id: 6, title: 'Seminar', more: { slug: 'seminar', description: 'Seminare für Studierende und Lehrende' } },
  { id: 8, title: 'Prüfung', more: { slug: 'pruefung', internal: true } },
  { id: 9, title: 'Kurs' },
  { id: 10, title: 'Symposium', more: { color: '#6f2c91' } },
  { id: 12, title: 'Weiterbildung für Gesundheitsberufe', more: { slug: 'weiterbildung-gesundheitsberufe', parent: 1 } },
  { id: 11, title: 'Informationsveranstaltung', more: { slug: 'info', color: null } },
];
const CATEGORY_FORTBILDUNG = 1;

function writeCategories(out: TreeWriter): number[] {
  out.write('categories.yaml', toYaml(CATEGORIES.map((c) => ({ id: c.id, title: c.title, ...c.more }))));
  return CATEGORIES.map((c) => c.id);
}

// ---------------------------------------------------------------------------------------
// Media

/** A 1×1 RGBA PNG (70 bytes, chunk CRCs checked). */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A one-page PDF with a correct xref table, so PDF tools accept it too. */
function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const ANFAHRT_TXT = Buffer.from(
  [
    'Anfahrt zum Hörsaalzentrum',
    '',
    'U6 bis Station Alser Straße, danach etwa 5 Minuten zu Fuß über die Spitalgasse.',
    'Straßenbahn 5 und 33 bis Lazarettgasse.',
    'Parkmöglichkeiten sind nur eingeschränkt vorhanden.',
    '',
  ].join('\n'),
  'utf8',
);

interface MediaFile {
  path: string;
  data: Buffer;
  mimetype: string;
}

const MEDIA_FILES: Record<'png' | 'pdf' | 'txt', MediaFile> = {
  png: { path: 'media/files/meduni-logo.png', data: PNG_1X1, mimetype: 'image/png' },
  pdf: { path: 'media/files/programm-beispiel.pdf', data: tinyPdf(), mimetype: 'application/pdf' },
  txt: { path: 'media/files/anfahrt.txt', data: ANFAHRT_TXT, mimetype: 'text/plain' },
};

const MIMETYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp4: 'video/mp4',
};

const IMAGE_NAMES = [
  'header-jahrestagung', 'hoersaalzentrum-aussen', 'Hörsaal 1 Panorama', 'fortbildung_banner', 'mini-med-studium',
  'Ärztefortbildung Titelbild', 'skills-lab', 'bibliothek-lesesaal', 'campus-luftbild', 'Gesundheitstag Plakat',
  'symposium-gefaessbiologie', 'Übungen Anatomie', 'kongress-2026-keyvisual', 'Weiß Vortrag Foto', 'labor_3-14',
];
const DOCUMENT_NAMES = [
  'Programm Jahrestagung', 'Anmeldeformular_Fortbildung', 'Anfahrtsplan Hörsaalzentrum', 'Skriptum Übungen Histologie',
  'Präsentation_Weiß', 'Handout Schüßler', 'Einladung Symposium', 'Abstractband', 'Teilnahmebedingungen',
  'Hygienerichtlinien', 'Flyer Gesundheitstag', 'Aufzeichnung Vortrag Grünwald', 'Literaturliste', 'Stundenplan',
  'Prüfungsordnung', 'Raumplan Ebene 7',
];

interface MediaPools {
  images: number[];
  documents: number[];
  all: number[];
}

interface MediaGroup {
  path: string;
  records: Record<string, unknown>[];
  /** write a single object instead of a list (the format allows both) */
  single?: boolean;
}

function writeMedia(out: TreeWriter, rng: Random): MediaPools {
  for (const file of Object.values(MEDIA_FILES)) out.write(file.path, file.data);

  const pools: MediaPools = { images: [], documents: [], all: [] };
  let nextId = 101;
  const newId = (): number => {
    const id = nextId;
    nextId += rng.chance(0.15) ? rng.int(2, 9) : 1;
    pools.all.push(id);
    return id;
  };

  const fileBacked = fileBackedMedia(newId, pools);
  const images = Array.from({ length: 22 }, (_, i) => {
    const id = newId();
    pools.images.push(id);
    return describedMedia(rng, id, IMAGE_NAMES[i % IMAGE_NAMES.length], rng.weighted([['jpg', 6], ['png', 2], ['webp', 1]] as const), i);
  });
  const documents = Array.from({ length: 32 }, (_, i) => {
    const id = newId();
    pools.documents.push(id);
    const ext = rng.weighted([['pdf', 10], ['docx', 2], ['pptx', 2], ['mp4', 1]] as const);
    return describedMedia(rng, id, DOCUMENT_NAMES[i % DOCUMENT_NAMES.length], ext, i);
  });

  const groups: MediaGroup[] = [
    { path: 'media.yaml', records: [...images.slice(0, 10), ...documents.slice(0, 10)] },
    { path: 'media/dateien.yaml', records: fileBacked },
    { path: 'media/bilder/veranstaltungen.yaml', records: images.slice(10, 21) },
    { path: 'media/bilder/plakat.yaml', records: images.slice(21), single: true },
    { path: 'media/dokumente/2025/programme.yaml', records: documents.slice(10, 21) },
    { path: 'media/dokumente/2026/programme.yaml', records: documents.slice(21) },
  ];
  for (const group of groups) out.write(group.path, toYaml(group.single ? group.records[0] : group.records));
  return pools;
}

/** Records backed by real files: half leave size/mimetype to the build, half state them exactly. */
function fileBackedMedia(newId: () => number, pools: MediaPools): Record<string, unknown>[] {
  const specs: [MediaFile, string, boolean][] = [
    [MEDIA_FILES.png, 'meduni-logo.png', false],
    [MEDIA_FILES.png, 'Logo Medizinische Universität.png', true],
    [MEDIA_FILES.pdf, 'programm-beispiel.pdf', false],
    [MEDIA_FILES.pdf, 'Programm Übersicht.pdf', true],
    [MEDIA_FILES.txt, 'anfahrt.txt', false],
    [MEDIA_FILES.txt, 'Anfahrt Hörsaalzentrum.txt', true],
  ];
  return specs.map(([file, filename, explicit]) => {
    const id = newId();
    (file.mimetype.startsWith('image/') ? pools.images : pools.documents).push(id);
    const record: Record<string, unknown> = { id, filename, original: null, file: file.path };
    if (explicit) {
      record.mimetype = file.mimetype;
      record.size = file.data.byteLength;
    }
    return record;
  });
}

function describedMedia(rng: Random, id: number, baseName: string, ext: string, index: number): Record<string, unknown> {
  const year = 2025 + (index % 2);
  const filename = `${baseName}${index >= 15 ? `_${year}` : ''}.${ext}`;
  const original = rng.chance(0.7) ? `https://www.meduni-beispiel.at/fileadmin/user_upload/${year}/${encodeURIComponent(filename)}` : null;
  const size = ext === 'mp4' ? rng.int(5_000_000, 80_000_000) : ext === 'pdf' ? rng.int(30_000, 4_000_000) : rng.int(12_000, 900_000);
  return { id, filename, original, mimetype: MIMETYPES[ext], size };
}

// ---------------------------------------------------------------------------------------
// Vocabulary shared by events and the directory

const FIRST_NAMES = [
  'Anna', 'Lukas', 'Sophie', 'David', 'Lena', 'Maximilian', 'Laura', 'Tobias', 'Katharina', 'Jakob', 'Julia',
  'Florian', 'Sarah', 'Matthias', 'Elisabeth', 'Stefan', 'Ayşe', 'Mehmet', 'Zeynep', 'Emre', 'Jürgen', 'Jörg',
  'Günther', 'Bärbel', 'Björn', 'Sören', 'Zoë', 'Chloé', 'Dragan', 'Milica', 'Nikola', 'Jovana', 'Agnieszka',
  'Łukasz', 'Tomáš', 'Petra', 'Andrea', 'Christoph', 'Thomas', 'Martina', 'Barbara', 'Wolfgang', 'Gerhard',
  'Ingrid', 'Helga', 'Franziska', 'Valentina', 'Elif', 'Deniz', 'Ömer', 'Gülşen', 'Anna-Lena', 'Karl-Heinz',
];
const LAST_NAMES = [
  'Müller', 'Mueller', 'Weiß', 'Weiss', 'Öztürk', 'Groß', 'Gross', 'Jäger', 'Köhler', 'Krämer', 'Schüßler',
  'Grünwald', 'Schönberger', 'Hofer', 'Gruber', 'Huber', 'Wagner', 'Pichler', 'Steiner', 'Moser', 'Mayer',
  'Maier', 'Meier', 'Bauer', 'Berger', 'Fuchs', 'Eder', 'Fischer', 'Schmid', 'Schneider', 'Winkler', 'Weber',
  'Schwarz', 'Lang', 'Brunner', 'Baumgartner', 'Wimmer', 'Auer', 'Egger', 'Lehner', 'Haas', 'Wolf', 'Reiter',
  'Leitner', 'Aigner', 'Binder', 'Lechner', 'Wallner', 'Holzer', 'Koller', 'Strasser', 'Straßer', 'Ebner',
  'Nowak', 'Horvath', 'Kovačević', 'Petrović', 'Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Nguyen', 'Dvořák',
  'Löffler', 'Fröhlich', 'Böhm', 'Kühn', 'Hübner', 'Zöhrer', 'Größing', 'de Vries', "O'Brien",
];
const PERSON_TITLES = [
  'Univ.-Prof. Dr.', 'Univ.-Prof. Dr. med.', 'Assoz. Prof. Dr.', 'Assoz. Prof. Priv.-Doz. Dr.', 'Priv.-Doz. Dr.',
  'Dr.', 'Dr. med.', 'Dr. med. univ.', 'Dr. med. dent.', 'Mag.', 'Mag. pharm.', 'MMag. Dr.', 'DI', 'Dipl.-Ing.',
  'Prof. Dr.', 'OA Dr.', 'Ing.',
];
const STUDENT_TITLES = ['Mag.', 'DI', 'Dr.', 'Ing.'];
const TITLES_AFTER = ['PhD', 'MSc', 'BSc', 'MBA', 'MA', 'MPH', 'PhD MSc', 'MSc MBA', 'FRCS'];

const SUBJECTS = [
  'Kardiologie', 'Innere Medizin', 'Chirurgie', 'Dermatologie', 'Neurologie', 'Psychiatrie',
  'Kinder- und Jugendheilkunde', 'Allgemeinmedizin', 'Anästhesiologie', 'Radiologie', 'Pathologie', 'Hygiene',
  'Physiologie', 'Anatomie', 'Gefäßmedizin', 'Hals-, Nasen- und Ohrenheilkunde', 'Augenheilkunde',
  'Frauenheilkunde', 'Urologie', 'Orthopädie', 'Notfallmedizin', 'Public Health',
];
const CLINICS = [
  'Innere Medizin I', 'Innere Medizin II', 'Innere Medizin III', 'Chirurgie', 'Dermatologie', 'Frauenheilkunde',
  'Kinder- und Jugendheilkunde', 'Psychiatrie und Psychotherapie', 'Augenheilkunde und Optometrie',
  'Hals-, Nasen- und Ohrenkrankheiten', 'Radiologie und Nuklearmedizin', 'Neurologie', 'Urologie',
  'Orthopädie und Unfallchirurgie', 'Anästhesie, Allgemeine Intensivmedizin und Schmerztherapie', 'Notfallmedizin',
];
const INSTITUTES = [
  'Physiologie', 'Pathophysiologie und Allergieforschung', 'Anatomie', 'Histologie und Embryologie', 'Pharmakologie',
  'Gerichtsmedizin', 'Hygiene und Angewandte Immunologie', 'Medizinische Statistik', 'Krebsforschung',
  'Sozialmedizin', 'Medizinische Physik', 'Ethik und Recht in der Medizin', 'Gefäßbiologie und Thromboseforschung',
  'Spezifische Prophylaxe und Tropenmedizin', 'Medizinische Genetik',
];
const CENTRES = [
  'Public Health', 'Hirnforschung', 'Medizinische Physik und Biomedizinische Technik', 'Pathobiochemie und Genetik',
  'Physiologie und Pharmakologie', 'Anatomie und Zellbiologie', 'Virologie', 'Medizinische Statistik, Informatik und Intelligente Systeme',
];

function personName(rng: Random, withTitle: boolean): string {
  const title = withTitle && rng.chance(0.7) ? `${rng.pick(PERSON_TITLES)} ` : '';
  return `${title}${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

function organizationName(rng: Random): string {
  return rng.weighted<() => string>([
    [() => `Universitätsklinik für ${rng.pick(CLINICS)}`, 5],
    [() => `Institut für ${rng.pick(INSTITUTES)}`, 4],
    [() => `Zentrum für ${rng.pick(CENTRES)}`, 2],
    [() => `Klinische Abteilung für ${rng.pick(SUBJECTS)}`, 1],
    [() => `Klinische Abteilung für ${rng.pick(SUBJECTS)} der Universitätsklinik für ${rng.pick(CLINICS)}`, 2],
    [() => `${rng.pick(['Ambulanz', 'Sekretariat', 'Studienservice'])} der Universitätsklinik für ${rng.pick(CLINICS)}`, 1],
    [() => `Arbeitsgruppe ${rng.pick(LAST_NAMES)}`, 1],
    [() => `Forschungsgruppe ${rng.pick(SUBJECTS)}`, 1],
  ])();
}

/** ASCII transliteration for slugs and e-mail addresses. */
function transliterate(text: string): string {
  return text
    .replace(/[Ää]/g, 'ae')
    .replace(/[Öö]/g, 'oe')
    .replace(/[Üü]/g, 'ue')
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .replace(/[Łł]/g, 'l')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function slugify(text: string, maxLength = 50): string {
  const slug = transliterate(text).replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length <= maxLength) return slug;
  const cut = slug.slice(0, maxLength);
  return cut.includes('-') ? cut.slice(0, cut.lastIndexOf('-')) : cut;
}

// ---------------------------------------------------------------------------------------
// Events

const EVENT_KINDS = [
  'Ärztefortbildung', 'Vortrag', 'Workshop', 'Seminar', 'Kurs', 'Symposium', 'Fortbildung für Pflegepersonen',
  'Ringvorlesung', 'Journal Club', 'Fallkonferenz', 'Mini Med Studium', 'Informationsabend',
];
const TOPICS = [
  'Aktuelle Therapie der Herzinsuffizienz', 'Antibiotic Stewardship im Krankenhaus', 'Notfallmanagement in der Ordination',
  'Schmerztherapie bei älteren Patientinnen und Patienten', 'Gefäßchirurgie heute', 'Künstliche Intelligenz in der Radiologie',
  'Impfungen für Erwachsene', 'Psychische Gesundheit von Studierenden', 'Ernährung und Stoffwechsel',
  'Sonographie für Einsteigerinnen und Einsteiger', 'Reanimation und Atemwegsmanagement', 'Seltene Erkrankungen im Kindesalter',
  'Hygiene im Operationssaal', 'Fußgesundheit bei Diabetes mellitus', 'Kommunikation mit Angehörigen',
  'Palliativmedizin in der Praxis', 'Allergien und Asthma', 'Schlafmedizin', 'Frauengesundheit in der Menopause',
  'Onkologische Immuntherapie', 'Schilddrüsenerkrankungen', 'Rückenschmerz – was hilft wirklich?', 'Hörsturz und Tinnitus',
  'Grundlagen der Biostatistik', 'Wissenschaftliches Schreiben', 'Ethik in der klinischen Forschung',
  'Telemedizin und digitale Gesundheitsanwendungen', 'Übergewicht im Kindes- und Jugendalter', 'Straßenverkehrsmedizin',
  'Gerinnungsstörungen erkennen und behandeln', 'Große Visite: Fallbesprechungen', 'Blutdruckmessung richtig gemacht',
];
const PRACTICALS = [
  'Übungen zur Histologie', 'Übungen zur Anatomie', 'Praktikum Physiologie', 'Nahtkurs für Studierende',
  'Übungen: Klinische Untersuchung', 'Sezierkurs Teil 2', 'Skills Lab: Venenpunktion',
];
// Titles with characters that are special in SQL LIKE patterns and regular expressions.
const LITERAL_SPECIAL_TITLES = [
  (topic: string) => `100% Prävention: ${topic}`,
  (topic: string) => `Kurs_A: ${topic}`,
  (topic: string) => `Modul_2 – ${topic}`,
  () => 'Impfquote 95% – wie erreichen wir das?',
  () => 'Fallbesprechung (Teil 1) – Diagnose?',
];
const LOCATIONS = [
  'Hörsaal 1, Spitalgasse 23, 1090 Wien', 'Hörsaal 2, Spitalgasse 23, 1090 Wien', 'Seminarraum 05.012',
  'Hörsaalzentrum, Ebene 7, Währinger Gürtel 18–20, 1090 Wien', 'Seminarraum 3, Kinderspitalgasse 15, 1090 Wien',
  'Van Swieten Saal, Van-Swieten-Gasse 1a, 1090 Wien', 'Josephinum, Währinger Straße 25, 1090 Wien',
  'Bibliothek, Lesesaal', 'Online (Webex)', 'Skills Lab, Ebene 6', 'Großer Festsaal, Universitätsring 1, 1010 Wien',
  'Labor 3.14, Lazarettgasse 14, 1090 Wien', 'Billrothhaus, Frankgasse 8, 1090 Wien', 'Hybrid: Hörsaal 3 und online',
  'Kursraum 1, Schwarzspanierstraße 17, 1090 Wien',
];
const AUDIENCES = [
  'Ärztinnen und Ärzte in Ausbildung', 'Fachärztinnen und Fachärzte', 'Studierende der Humanmedizin',
  'Pflegepersonen und Angehörige der Gesundheitsberufe', 'die interessierte Öffentlichkeit', 'Allgemeinmedizinerinnen und Allgemeinmediziner',
];
const SENTENCES = [
  'Anhand aktueller Studien werden die wichtigsten Neuerungen für den klinischen Alltag vorgestellt.',
  'Im Anschluss an die Vorträge besteht ausreichend Gelegenheit zur Diskussion.',
  'Die Referentinnen und Referenten berichten aus ihrer langjährigen Erfahrung an der Klinik.',
  'Praktische Übungen in Kleingruppen ergänzen den theoretischen Teil.',
  'Bitte bringen Sie eigene Fallbeispiele mit, die gemeinsam besprochen werden können.',
  'Die Veranstaltung wird in deutscher Sprache abgehalten.',
  'Für Verpflegung in den Pausen ist gesorgt.',
  'Eine Teilnahmebestätigung wird im Anschluss per E-Mail übermittelt.',
  'Die Unterlagen stehen nach der Veranstaltung zum Download bereit.',
  'Ziel ist ein praxisnaher Überblick über Diagnostik, Therapie und Nachsorge.',
  'Der Hörsaal ist barrierefrei über den Haupteingang erreichbar.',
  'Aus organisatorischen Gründen ersuchen wir um pünktliches Erscheinen.',
];
const PROGRAMME_ITEMS = [
  'Begrüßung und Einführung', 'Aktuelle Leitlinien im Überblick', 'Kaffeepause', 'Fallbeispiele aus der Praxis',
  'Mittagspause', 'Praktische Übungen in Kleingruppen', 'Diskussion und Fragen', 'Zusammenfassung und Ausblick',
];
const HINWEISE = [
  'Die Veranstaltung wird aufgezeichnet.',
  'Bitte bringen Sie einen Lichtbildausweis mit.',
  'Die Teilnahme ist auf 30 Personen begrenzt.',
  'Parkplätze sind nur in der Tiefgarage Spitalgasse verfügbar.',
];
const EXTERNAL_LINKS = [
  'https://www.aerztekammer.at/fortbildung', 'https://www.meindfp.at/', 'https://www.oegkj.at/jahrestagung',
  'https://www.gesundheit.gv.at/', 'https://www.univie.ac.at/', 'https://www.wien.gv.at/gesundheit/',
];
const FEE_INFOS = [
  'Teilnahmegebühr: EUR 120,–; ermäßigt EUR 60,– für Studierende',
  'EUR 250,– inkl. Kursunterlagen und Verpflegung',
  'Mitglieder EUR 80,–, Nichtmitglieder EUR 150,–',
  'Kostenbeitrag EUR 35,– (vor Ort in bar zu bezahlen)',
];

/** Structured body, rendered to Markdown for .md files and to HTML for YAML/JSON. */
type Inline = string | { em: string } | { strong: string } | { link: string; href: string };
type Block = { p: Inline[] } | { h: string } | { ul: string[] } | { ol: string[] } | { html: string };

type EventFields = Record<string, unknown>;

interface EventContext {
  pages: readonly PageSpec[];
  categories: number[];
  media: MediaPools;
}

/** Events as generated, waiting to be written in one of the three file forms. */
interface GeneratedEvent {
  id: number;
  startWall: number;
  title: string;
  fields: EventFields;
  blocks: Block[];
}

type EventStorage = 'md' | 'yaml' | 'json';

class EventGenerator {
  private nextId = 1000;
  private nextRelatedMediaId = 1;
  /** recent timed starts; some events reuse one so that equal start times occur */
  private readonly recentStarts: number[] = [];
  private readonly pageEntries: (readonly [PageSpec, number])[];

  constructor(
    private readonly rng: Random,
    private readonly ctx: EventContext,
  ) {
    this.pageEntries = ctx.pages.map((page) => [page, page.weight] as const);
  }

  next(): GeneratedEvent {
    const rng = this.rng;
    const id = this.takeId();
    const title = this.title();
    const categories = this.categories(title);
    const allday = rng.chance(0.1);
    const [startWall, endWall] = allday ? this.alldaySpan() : this.timedSpan();
    const register = rng.chance(0.45);
    const fees = rng.chance(0.35);
    const fortbildung = categories.includes(CATEGORY_FORTBILDUNG) || title.startsWith('Ärztefortbildung');
    const dfpPoints = rng.chance(fortbildung ? 0.7 : 0.08) ? rng.int(1, 12) : null;
    const contact = rng.chance(0.7) ? personName(rng, true) : null;
    // Exporters write every key; hand-written files leave most defaults out.
    const fullExport = rng.chance(0.3);
    const f = new FieldWriter(rng, fullExport);

    f.set('id', id);
    f.set('title', title);
    f.set('start', randomTimestamp(rng, startWall));
    f.set('end', randomTimestamp(rng, endWall));
    f.opt('allday', allday, false);
    f.opt('url', rng.chance(0.7) ? `https://www.meduni-beispiel.at/veranstaltungen/detail/${slugify(title)}-${id}/` : null, null);
    f.opt('link', rng.chance(0.3) ? rng.pick(EXTERNAL_LINKS) : null, null);
    f.opt('page', rng.chance(0.85) ? rng.weighted(this.pageEntries).uid : null, null);
    f.opt('categories', categories, []);
    f.opt('header_image', rng.chance(0.6) ? rng.pick(this.ctx.media.images) : null, null);
    f.opt('media', rng.sample(this.ctx.media.documents, rng.weighted([[0, 5], [1, 3], [2, 1], [3, 1]])), []);
    f.opt('related_media', this.relatedMedia(startWall), []);
    f.opt('organizer', rng.chance(0.85) ? (rng.chance(0.6) ? organizationName(rng) : personName(rng, true)) : null, null);
    f.opt('location', rng.chance(0.9) ? rng.pick(LOCATIONS) : null, null);
    f.opt('contact', contact, null);
    f.opt('email', rng.chance(contact ? 0.85 : 0.3) ? this.email(contact) : null, null);
    f.opt('attending_fees_info', fees ? rng.pick(FEE_INFOS) : rng.chance(0.2) ? 'Die Teilnahme ist kostenlos.' : null, null);
    if (rng.chance(0.5)) f.set('teaser', this.teaser(title));
    f.opt('register', register, false);
    f.opt('attending_fees', fees, false);
    f.opt('registration_end', rng.chance(register ? 0.8 : 0.05) ? randomTimestamp(rng, this.registrationEnd(startWall)) : null, null);
    f.opt('dfp_points', dfpPoints, null);
    f.set('last_modified', randomTimestamp(rng, this.lastModified(startWall)));
    f.opt('keywords', rng.chance(0.05) ? `${rng.pick(SUBJECTS)}, Fortbildung, DFP` : null, null);
    f.opt('description', rng.chance(0.03) ? `${title} – Veranstaltung der Medizinischen Universität` : null, null);
    f.opt('language', rng.chance(0.06) ? rng.weighted([['de', 5], ['en', 1]]) : null, null);
    f.opt('gallery', [], []);
    f.opt('contact_box', [], []);
    f.opt('groups', rng.chance(0.03) ? [1] : [], []);
    f.opt('related_links', [], []);
    if (rng.chance(0.01)) f.set('extra', { cms_uid: id * 7 + 3, workflow_state: 'published', translations: [] });

    return { id, startWall, title, fields: f.fields, blocks: this.body(title, dfpPoints, register) };
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId += this.rng.chance(0.1) ? this.rng.int(2, 10) : 1;
    return id;
  }

  private title(): string {
    const rng = this.rng;
    const topic = rng.pick(TOPICS);
    return rng.weighted<() => string>([
      [() => `${rng.pick(EVENT_KINDS)}: ${topic}`, 10],
      [() => topic, 5],
      [() => rng.pick(PRACTICALS), 2],
      [() => `${rng.int(10, 65)}. Jahrestagung der Österreichischen Gesellschaft für ${rng.pick(SUBJECTS)}`, 1],
      [() => `Weiß-Symposium: ${topic}`, 0.5],
      [() => rng.pick(LITERAL_SPECIAL_TITLES)(topic), 0.6],
    ])();
  }

  private categories(title: string): number[] {
    const picked = this.rng.sample(this.ctx.categories, this.rng.weighted([[0, 10], [1, 55], [2, 25], [3, 10]]));
    if (title.startsWith('Ärztefortbildung') && picked.length > 0 && !picked.includes(CATEGORY_FORTBILDUNG)) {
      picked[0] = CATEGORY_FORTBILDUNG;
    }
    return picked;
  }

  private timedSpan(): [number, number] {
    const rng = this.rng;
    if (this.recentStarts.length > 0 && rng.chance(0.06)) {
      const start = rng.pick(this.recentStarts);
      return [start, start + rng.pick([60, 90, 120]) * 60_000];
    }
    const day = rng.int(0, DAYS_IN_RANGE - 1);
    const start = wallOnDay(rng, day, 7, 20, false);
    this.recentStarts.push(start);
    if (this.recentStarts.length > 32) this.recentStarts.shift();

    if (rng.chance(0.05) && day < DAYS_IN_RANGE - 1) {
      // Congress over several days, ending in the afternoon, never past the range.
      const extraDays = Math.min(rng.int(1, 3), DAYS_IN_RANGE - 1 - day);
      return [start, wallOnDay(rng, day + extraDays, 13, 18, false)];
    }
    const startHour = new Date(start).getUTCHours();
    const maxMinutes = (23 - startHour) * 60; // ends by 23:xx the same day
    const minutes = Math.min(rng.pick([45, 60, 90, 90, 120, 120, 180, 240, 480]), maxMinutes);
    return [start, start + minutes * 60_000];
  }

  /** All-day events start at local midnight; single days end at 23:59:59 or at the start. */
  private alldaySpan(): [number, number] {
    const rng = this.rng;
    const day = rng.int(0, DAYS_IN_RANGE - 1);
    const start = FIRST_DAY + day * DAY;
    const shape = rng.weighted([['same-day', 6], ['instant', 2], ['multi-day', 2]] as const);
    if (shape === 'instant') return [start, start];
    const lastDay = shape === 'multi-day' ? Math.min(day + rng.int(1, 3), DAYS_IN_RANGE - 1) : day;
    return [start, FIRST_DAY + lastDay * DAY + DAY - 1000];
  }

  private relatedMedia(startWall: number): Record<string, unknown>[] {
    const rng = this.rng;
    const count = rng.weighted([[0, 12], [1, 5], [2, 2], [3, 1]]);
    return Array.from({ length: count }, () => ({
      id: this.nextRelatedMediaId++,
      media: rng.pick(this.ctx.media.all),
      datetime: randomTimestamp(rng, this.lastModified(startWall)),
      title: rng.chance(0.7) ? rng.pick(DOCUMENT_NAMES) : null,
      description: rng.chance(0.4) ? rng.pick(SENTENCES) : null,
    }));
  }

  private email(contact: string | null): string {
    if (!contact) return this.rng.pick(['fortbildung@meduni-beispiel.at', 'veranstaltungen@meduni-beispiel.at', 'office@meduni-beispiel.at']);
    const [first, ...rest] = contact.split(' ').filter((part) => !part.endsWith('.') && part !== 'DI' && part !== 'OA');
    const local = [first, rest.at(-1) ?? ''].filter(Boolean).map((part) => transliterate(part).replace(/[^a-z0-9-]/g, ''));
    return `${local.join('.')}@meduni-beispiel.at`;
  }

  private teaser(title: string): string {
    const rng = this.rng;
    return rng.weighted<() => string>([
      [() => `${title} – ein kompakter Überblick für ${rng.pick(AUDIENCES)}.`, 3],
      [() => rng.pick(SENTENCES), 2],
      [() => `Wir laden herzlich ein: ${title}. ${rng.pick(SENTENCES)}`, 1],
    ])();
  }

  /** 1–21 days before the start day, at noon or just before midnight: always before the start. */
  private registrationEnd(startWall: number): number {
    const startDay = Math.floor((startWall - FIRST_DAY) / DAY);
    const hourMinute = this.rng.pick([12 * 60, 23 * 60 + 59]);
    return FIRST_DAY + (startDay - this.rng.int(1, 21)) * DAY + hourMinute * 60_000;
  }

  /** Mostly weeks before the start, sometimes a correction shortly after it. */
  private lastModified(startWall: number): number {
    const startDay = Math.floor((startWall - FIRST_DAY) / DAY);
    const day = this.rng.chance(0.1) ? startDay + this.rng.int(1, 10) : startDay - this.rng.int(1, 150);
    return wallOnDay(this.rng, day, 6, 23, true);
  }

  private body(title: string, dfpPoints: number | null, register: boolean): Block[] {
    const rng = this.rng;
    const audience = `Die Veranstaltung „${title}“ richtet sich an ${rng.pick(AUDIENCES)}.`;
    const sentences = rng.sample(SENTENCES, rng.int(1, 4));
    // Short bodies keep the derived teaser under 300 code points (not cut).
    const short = rng.chance(0.15);
    const blocks: Block[] = [{ p: [[audience, ...(short ? sentences.slice(0, 1) : sentences)].join(' ')] }];
    if (short) return blocks;
    if (rng.chance(0.5)) {
      blocks.push({ h: 'Programm' });
      // Programme items keep their natural order (welcome first, summary last).
      const items = rng.sample(PROGRAMME_ITEMS, rng.int(3, 5)).sort((a, b) => PROGRAMME_ITEMS.indexOf(a) - PROGRAMME_ITEMS.indexOf(b));
      blocks.push(rng.chance(0.7) ? { ul: items } : { ol: items });
    }
    blocks.push({
      p: [
        register ? { strong: 'Anmeldung erforderlich.' } : 'Eine Anmeldung ist nicht erforderlich.',
        ' Die Teilnehmerzahl ist ',
        { em: 'begrenzt' },
        '. Weitere Informationen finden Sie ',
        { link: 'auf der Veranstaltungsseite', href: `https://www.meduni-beispiel.at/veranstaltungen/${slugify(title, 30)}` },
        '.',
      ],
    });
    if (rng.chance(0.2)) {
      const text = dfpPoints !== null ? `Die Veranstaltung ist mit <strong>${dfpPoints} DFP-Punkten</strong> approbiert.` : escapeHtml(rng.pick(HINWEISE));
      blocks.push({ html: `<div class="hinweis">\n<p>${text}</p>\n</div>` });
    }
    return blocks;
  }
}

/** Collects front-matter keys in a fixed order, leaving out defaults where a person would. */
class FieldWriter {
  readonly fields: EventFields = {};

  constructor(
    private readonly rng: Random,
    private readonly writeDefaults: boolean,
  ) {}

  set(key: string, value: unknown): void {
    this.fields[key] = value;
  }

  /** Keys whose value equals the default are written by exports and ~30% of the rest. */
  opt(key: string, value: unknown, defaultValue: null | false | []): void {
    const isDefault = Array.isArray(defaultValue) ? Array.isArray(value) && value.length === 0 : value === defaultValue;
    // Always draw, so the random stream does not depend on the outcome.
    const keep = this.rng.chance(0.3);
    if (!isDefault || this.writeDefaults || keep) this.fields[key] = value;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Backslash-escapes what CommonMark could read as markup in running text. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, (ch) => `\\${ch}`);
}

function inlineToMarkdown(part: Inline): string {
  if (typeof part === 'string') return escapeMarkdown(part);
  if ('em' in part) return `*${escapeMarkdown(part.em)}*`;
  if ('strong' in part) return `**${escapeMarkdown(part.strong)}**`;
  return `[${escapeMarkdown(part.link)}](${part.href})`;
}

function inlineToHtml(part: Inline): string {
  if (typeof part === 'string') return escapeHtml(part);
  if ('em' in part) return `<em>${escapeHtml(part.em)}</em>`;
  if ('strong' in part) return `<strong>${escapeHtml(part.strong)}</strong>`;
  return `<a href="${escapeHtml(part.href)}">${escapeHtml(part.link)}</a>`;
}

function blocksToMarkdown(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if ('p' in block) return block.p.map(inlineToMarkdown).join('');
      if ('h' in block) return `## ${escapeMarkdown(block.h)}`;
      if ('ul' in block) return block.ul.map((item) => `- ${escapeMarkdown(item)}`).join('\n');
      if ('ol' in block) return block.ol.map((item, i) => `${i + 1}. ${escapeMarkdown(item)}`).join('\n');
      return block.html;
    })
    .join('\n\n');
}

function blocksToHtml(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if ('p' in block) return `<p>${block.p.map(inlineToHtml).join('')}</p>`;
      if ('h' in block) return `<h2>${escapeHtml(block.h)}</h2>`;
      if ('ul' in block) return `<ul>\n${block.ul.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n')}\n</ul>`;
      if ('ol' in block) return `<ol>\n${block.ol.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n')}\n</ol>`;
      return block.html;
    })
    .join('\n');
}

function markdownFile(event: GeneratedEvent): string {
  return `---\n${toYaml(event.fields)}---\n\n${blocksToMarkdown(event.blocks)}\n`;
}

function markdownPath(event: GeneratedEvent): string {
  const date = new Date(event.startWall);
  const year = date.getUTCFullYear();
  const month = pad2(date.getUTCMonth() + 1);
  return `events/${year}/${month}/${event.id}-${slugify(event.title) || 'veranstaltung'}.md`;
}

function withHtmlBody(event: GeneratedEvent): EventFields {
  return { ...event.fields, body: blocksToHtml(event.blocks) };
}

function writeEvents(out: TreeWriter, rng: Random, count: number, ctx: EventContext): void {
  const generator = new EventGenerator(rng, ctx);
  // About a quarter go to YAML lists; five files or more, at most 50 events each.
  const yamlBatchSize = Math.min(50, Math.max(1, Math.ceil((count * 0.25) / 5)));
  // One JSON list with two events (one for tiny sets), so the .json path is always used.
  const jsonIndexes = new Set(count >= 10 ? [1, count - 2] : count >= 2 ? [1] : []);

  let yamlBatch: EventFields[] = [];
  let yamlFiles = 0;
  const jsonEvents: EventFields[] = [];
  const flushYaml = (): void => {
    if (yamlBatch.length === 0) return;
    out.write(`events/batch-${++yamlFiles}.yaml`, toYaml(yamlBatch));
    yamlBatch = [];
  };

  for (let i = 0; i < count; i++) {
    const event = generator.next();
    const storage: EventStorage = jsonIndexes.has(i) ? 'json' : rng.chance(0.25) ? 'yaml' : 'md';
    if (storage === 'md') {
      out.write(markdownPath(event), markdownFile(event));
    } else if (storage === 'json') {
      jsonEvents.push(withHtmlBody(event));
    } else {
      yamlBatch.push(withHtmlBody(event));
      if (yamlBatch.length >= yamlBatchSize) flushYaml();
    }
  }
  flushYaml();
  if (jsonEvents.length > 0) out.write('events/import/cms-export.json', `${JSON.stringify(jsonEvents, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------
// Directory

/** Share of each model: ~45% persons/students, ~35% rooms, ~20% organizations. */
const MODEL_SHARES: Record<DirectoryModel, number> = {
  'campus.Person': 0.17,
  'structure.Person': 0.13,
  'campus.Student': 0.15,
  'campus.Room': 0.22,
  'geo.Room': 0.13,
  'structure.Organization': 0.2,
};

/** Splits `total` by MODEL_SHARES (largest remainder), every model at least once if possible. */
export function directoryCounts(total: number): Record<DirectoryModel, number> {
  const counts = {} as Record<DirectoryModel, number>;
  const remainders = DIRECTORY_MODELS.map((model) => {
    const exact = total * MODEL_SHARES[model];
    counts[model] = Math.floor(exact);
    return { model, remainder: exact - counts[model] };
  });
  let missing = total - DIRECTORY_MODELS.reduce((sum, model) => sum + counts[model], 0);
  // Stable sort: ties keep DIRECTORY_MODELS order.
  for (const { model } of remainders.sort((a, b) => b.remainder - a.remainder)) {
    if (missing-- <= 0) break;
    counts[model]++;
  }
  for (const model of DIRECTORY_MODELS) {
    if (counts[model] > 0 || total < DIRECTORY_MODELS.length) continue;
    const largest = DIRECTORY_MODELS.reduce((a, b) => (counts[b] > counts[a] ? b : a));
    counts[largest]--;
    counts[model]++;
  }
  return counts;
}

function writeDirectory(out: TreeWriter, rng: Random, total: number): void {
  const counts = directoryCounts(total);
  for (const model of DIRECTORY_MODELS) {
    // Separate stream per model: a model's objects do not depend on the others' counts.
    writeModel(out, Random.derive(rng.nextUint32(), model), model, counts[model]);
  }
}

function writeModel(out: TreeWriter, rng: Random, model: DirectoryModel, count: number): void {
  // Several parts per model even for small sets (nested folders, many files); at most 500.
  const partSize = Math.min(500, Math.max(1, Math.ceil(count / 4)));
  const folder = `directory/${model.toLowerCase().replace('.', '-')}`;
  let id = rng.int(1, 50);
  let roomId = 10_000 + rng.int(0, 999);
  let part: Record<string, unknown>[] = [];
  let parts = 0;

  for (let i = 0; i < count; i++) {
    const object = directoryObject(rng, model, id, roomId);
    id += rng.chance(0.15) ? rng.int(2, 20) : 1;
    roomId += rng.int(1, 7);
    part.push(object);
    if (part.length >= partSize || i === count - 1) {
      out.write(`${folder}/part-${++parts}.yaml`, toYaml(part));
      part = [];
    }
  }
}

function directoryObject(rng: Random, model: DirectoryModel, id: number, roomId: number): Record<string, unknown> {
  const object: Record<string, unknown> = { model, id };
  const kind = directoryKind(model);
  if (kind === 'person') Object.assign(object, personFields(rng, model === 'campus.Student'));
  else if (kind === 'room') Object.assign(object, roomFields(rng, model, roomId));
  else object.name = organizationName(rng);

  if (rng.chance(0.1)) object.keywords = rng.sample(KEYWORDS[kind], rng.int(1, 3));
  if (rng.chance(0.005)) object.presentation = explicitPresentation(rng, object, kind);
  if (rng.chance(0.005)) object.extra = { source: 'campus-export', synced: '2025-01-15T08:00:00+01:00', flags: ['import'] };
  return object;
}

function personFields(rng: Random, student: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (rng.chance(student ? 0.08 : 0.65)) fields.title = rng.pick(student ? STUDENT_TITLES : PERSON_TITLES);
  if (rng.chance(0.93)) fields.first_name = rng.chance(0.05) ? rng.sample(FIRST_NAMES, 2).join(' ') : rng.pick(FIRST_NAMES);
  fields.last_name = rng.chance(0.03) ? `${rng.pick(LAST_NAMES)}-${rng.pick(LAST_NAMES)}` : rng.pick(LAST_NAMES);
  if (rng.chance(student ? 0.12 : 0.25)) fields.title_after = rng.pick(student ? ['BSc', 'MSc', 'BA'] : TITLES_AFTER);
  return fields;
}

const ROOM_BUILDINGS = ['BT25', 'BT86', 'SP23', 'LZ14', 'KS15', 'AKH'];
const BUILDING_ADDRESSES = ['Spitalgasse 23', 'Währinger Gürtel 18–20', 'Lazarettgasse 14', 'Kinderspitalgasse 15', 'Schwarzspanierstraße 17'];

function roomFields(rng: Random, model: DirectoryModel, roomId: number): Record<string, unknown> {
  const floor = rng.int(0, 9);
  const number = `${pad2(floor)}.${String(rng.int(1, 250)).padStart(3, '0')}`;
  const name = rng.weighted<() => string>([
    [() => `Hörsaal ${rng.int(1, 12)}`, 2],
    [() => `Seminarraum ${number}`, 5],
    [() => `Labor ${floor}.${pad2(rng.int(1, 40))}`, 4],
    [() => `Büro ${number}`, 5],
    [() => `Besprechungsraum ${number}`, 2],
    [() => rng.pick(['Bibliothek', 'Lesesaal', 'Lernzentrum', 'Großer Hörsaal', 'Kleiner Hörsaal', 'Sozialraum', 'Skills Lab']), 1],
    [() => `Übungsraum ${rng.int(1, 20)}`, 1],
  ])();
  const fields: Record<string, unknown> = { name };
  if (rng.chance(0.6)) fields.code = model === 'geo.Room' ? `${rng.pick(ROOM_BUILDINGS)}/${number}` : `${rng.pick(ROOM_BUILDINGS)}-${number}`;
  if (rng.chance(0.97)) {
    fields.level_id = rng.int(1, 60) * 10 + floor;
    fields.room_id = roomId;
  }
  return fields;
}

const KEYWORDS: Record<'person' | 'room' | 'organization', string[]> = {
  person: ['Sekretariat', 'Studienservice', 'Erasmus', 'Ansprechperson', 'Vorstand', 'Lehrbeauftragte', 'Betriebsrat'],
  room: ['barrierefrei', 'Hörsaalzentrum', 'Beamer', 'Videokonferenz', 'Ebene 7', 'Altbau'],
  organization: ['Ambulanz', 'Klinik', 'Sekretariat', 'Forschung', 'Lehre', 'Notfall', 'Tagesklinik'],
};

function explicitPresentation(rng: Random, object: Record<string, unknown>, kind: 'person' | 'room' | 'organization'): string {
  if (kind === 'person') {
    const name = [object.title, object.first_name, object.last_name].filter(Boolean).join(' ');
    return `${name} (${rng.pick(['Vorständin', 'Vorstand', 'Studienprogrammleitung', 'Sekretariat'])})`;
  }
  if (kind === 'room') return `${String(object.name)} – ${rng.pick(BUILDING_ADDRESSES)}`;
  return `${String(object.name)} (${rng.pick(['Ambulanz', 'Sekretariat', 'Leitung'])})`;
}
