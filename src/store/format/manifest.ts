// dist/manifest.json: what a dist holds and how it was built. Written last, so its presence
// marks a complete dist.
import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { isValidZone } from '../../time/zone.ts';
import type { EventPart } from './dist-paths.ts';
// the build writes site.offsets with it (an edge isolate answers a date filter from them, without loading ICU's formatting data)
export { zoneTableText } from '../../time/offsets.ts';

// 2: the event rows stored as parts (data/events/NNNNN.jsonl, dist-paths.ts), not one events.jsonl
// 3: the columns and their indexes as binary files (data/columns/, column-files.ts), not
//    events.columns.json and events.text.json
// 4: the field offsets stored per event part (data/events/NNNNN.offsets.bin), not one
//    events.offsets.bin
// 5: a boolean column's file holds each value's rows as bit sets too (bool-column-file.ts)
// 6: a string table holds each string's byte start beside its UTF-16 start (string-table.ts); a
//    file larger than a block lists its blocks' SHA-256 sums (FileDigest.blocks)
// 7: a long text column holds its folded values' word lists (word-lists.ts)
// 8: the calendar entries stored per event part (data/calendar/NNNNN.bin, dist-paths.ts), not one
//    data/calendar.bin
// 9: a file read in parts lists the SHA-256 of its blocks' sums (FileDigest.blocks), which an
//    --edge build writes apart (blockSumsFile), not the sums themselves
// 10: the event parts cut where their rows' ids say and named by their first row's id
//    (data/events/<id>.jsonl, event-parts.ts), listed in the manifest (event_parts), not every
//    event_part_rows rows and numbered
export const DIST_FORMAT = 10;

export interface Manifest {
  format: number;
  version: string;
  built_at: string;
  base_url: string;
  /** site.yaml's settings the server answers by; `title` only when site.yaml gives one */
  /** `offsets`: the time zone's changes over the years dates are asked in, as the build's Intl gave them (zoneTableText, time/offsets.ts) */
  site: { timezone: string; page_size: number; max_page_size: number; title?: string; offsets?: string };
  counts: { events: number; pages: number; categories: number; media: number; directory: number; event_list_pages: number };
  /** the parts of the event rows in order (dist-paths.ts), each its name and rows: they add up to counts.events */
  event_parts: EventPart[];
  /** where the static pages of the default event list are, relative to dist/ */
  event_list: { first: string; further: string; limit: number };
  /**
   * Every file the server loads (data/*, autocomplete/*), relative to dist/, with its size and
   * SHA-256: a server verifies them before serving, and a copy elsewhere can be checked.
   */
  files: Record<string, FileDigest>;
  /**
   * The build's identity, a digest of the rest of the manifest (every file's checksum included):
   * the same on every replica of one build, another for any other build. Sent as X-Aula-Build.
   * Absent in dists built before it existed.
   */
  build_id?: string;
  /**
   * Every served file (event pages, documents, schemas, autocomplete files, media copies),
   * relative to dist/, with its SHA-256: what dist/changes.json is computed from.
   */
  public_files?: Record<string, string>;
  /** How the .gz/.br files were made, so a rebuild may reuse the unchanged ones (absent without them). */
  precompressed?: { compressor: string; volume: number };
}

/**
 * build_id: 16 hex digits of the SHA-256 of the manifest without it and without what the build
 * adds after it is known (the public files' hashes and how they were compressed, which follow
 * from the data the id already covers).
 */
export function buildIdOf(manifest: Manifest): string {
  const { build_id: _, public_files: __, precompressed: ___, ...rest } = manifest;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 16);
}

export interface FileDigest {
  /** lower-case hex */
  sha256: string;
  bytes: number;
  /**
   * For a file of BLOCKED_FILE_BYTES or more: the SHA-256 (lower-case hex) of its blocks' sums,
   * the SHA-256 of each BLOCK_BYTES of it (the last one shorter) one after another, 32 bytes each.
   * A reader that needs a few parts of a large file (an edge isolate, which fetches the sections an
   * answer reads by range) fetches those sums (blockSumsFile), checks them against this, then
   * checks the blocks it reads, not the whole file, and uses no byte of a block it has not checked.
   * The sums live apart, not here: the manifest is parsed by every isolate, and small blocks make
   * many sums.
   */
  blocks?: string;
  /**
   * The file's CRC-32 (zlib's), 8 lower-case hex digits, where the build's Node has it (20.15+).
   * A server reading the dist from its own disk checks this instead of the SHA-256: what that check
   * is for — a damaged file, a half copy, another build's file — a CRC-32 finds as surely, at a
   * fifth of the time, which every start and reload pays. What comes over a network (a replica's
   * fetches, an edge isolate's) is checked against the SHA-256.
   */
  crc32?: string;
}

/** The block a sum is listed for (FileDigest.blocks): a row or a lookup's section spans one or two. */
export const BLOCK_BYTES = 16 * 1024;
/**
 * Files this large list their blocks' sums: those worth reading in parts (an event part, of which
 * an answer reads a few rows; a column, of which a lookup reads a few sections). A smaller file
 * is read whole (one request costs less than a round per section).
 */
export const BLOCKED_FILE_BYTES = 1024 * 1024;
/** bytes of one block's SHA-256 in a file of block sums */
export const BLOCK_SUM_BYTES = 32;

/** The blocks of a file of `bytes`: how many sums its file of block sums holds. */
export const blockCount = (bytes: number): number => Math.ceil(bytes / BLOCK_BYTES);

/**
 * Where an --edge build writes the block sums of a file whose digest is `digest` (relative to
 * dist/): named by their own SHA-256, so a file unchanged between builds keeps its name, and a
 * deploy under way never pairs a file with another build's sums.
 */
export const blockSumsFile = (digest: { blocks: string }): string => `edge/blocks/${digest.blocks}.bin`;

/** The SHA-256 of each block of `bytes`, one after another (a file of block sums). */
export function sumsOfBlocks(bytes: Uint8Array): Uint8Array {
  const sums = new Uint8Array(blockCount(bytes.byteLength) * BLOCK_SUM_BYTES);
  for (let at = 0, b = 0; at < bytes.byteLength; at += BLOCK_BYTES, b++) sums.set(createHash('sha256').update(bytes.subarray(at, at + BLOCK_BYTES)).digest(), b * BLOCK_SUM_BYTES);
  return sums;
}

/** FileDigest.blocks of `bytes` (undefined for a file smaller than BLOCKED_FILE_BYTES). */
export function blockSums(bytes: Uint8Array): string | undefined {
  return bytes.byteLength < BLOCKED_FILE_BYTES ? undefined : sha256Hex(sumsOfBlocks(bytes));
}

/** Lower-case hex SHA-256 with node:crypto: the build's and the server's (the edge has its own, see verified-source.ts). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** A digest of bytes given chunk by chunk, in order: lower-case hex once they are all given. */
export interface Hasher {
  update(chunk: Uint8Array): void;
  hex(): string;
}

export function sha256Hasher(): Hasher {
  const hash = createHash('sha256');
  return { update: (chunk) => void hash.update(chunk), hex: () => hash.digest('hex') };
}

/** FileDigest.crc32 chunk by chunk (each continuing the last's value), or null where node:zlib has no crc32. */
export function crc32Hasher(): Hasher | null {
  if (zlibCrc32 === undefined) return null;
  let value = 0;
  return { update: (chunk) => void (value = zlibCrc32(chunk, value)), hex: () => (value >>> 0).toString(16).padStart(8, '0') };
}

/** FileDigest.crc32 of `bytes`; undefined where node:zlib has no crc32. */
export const crc32Hex: ((bytes: Uint8Array) => string) | undefined =
  zlibCrc32 === undefined ? undefined : (bytes) => (zlibCrc32(bytes) >>> 0).toString(16).padStart(8, '0');

export function digestOf(content: string | Uint8Array): FileDigest {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const blocks = blockSums(bytes);
  const crc32 = crc32Hex?.(bytes);
  return { sha256: sha256Hex(bytes), bytes: bytes.byteLength, ...(blocks !== undefined && { blocks }), ...(crc32 !== undefined && { crc32 }) };
}

/** The digests of a set of files, keyed as given, in key order (so two builds write the same manifest). */
export function digestsOf(files: Iterable<[string, string | Uint8Array]>): Record<string, FileDigest> {
  const entries = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([rel, content]) => [rel, digestOf(content)]));
}

const validDigest = (d: unknown): d is FileDigest =>
  typeof d === 'object' && d !== null && typeof (d as FileDigest).sha256 === 'string' && /^[0-9a-f]{64}$/.test((d as FileDigest).sha256) &&
  Number.isSafeInteger((d as FileDigest).bytes) && (d as FileDigest).bytes >= 0 && validBlocks(d as FileDigest) &&
  ((d as FileDigest).crc32 === undefined || (typeof (d as FileDigest).crc32 === 'string' && /^[0-9a-f]{8}$/.test((d as FileDigest).crc32!)));

/** blocks, when listed (a file whose reader never reads it in parts need not list them): a SHA-256 */
const validBlocks = (d: FileDigest): boolean => d.blocks === undefined || (typeof d.blocks === 'string' && /^[0-9a-f]{64}$/.test(d.blocks));

export class DistError extends Error {
  override name = 'DistError';
}

/**
 * `checkedZone`: a time zone known valid (an edge isolate's, which the build that wrote its config
 * checked): a manifest naming it is taken without asking Intl for every zone it knows, which costs
 * a fresh isolate more than the rest of the manifest's checks.
 */
export function parseManifest(text: string, where: string, checkedZone?: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text);
  } catch {
    // (not the parser's message: it quotes the text, which may be any bytes an origin sent)
    throw new DistError(`${where}: not valid JSON`);
  }
  if (m?.format !== DIST_FORMAT) {
    const format = Number.isSafeInteger(m?.format) ? String(m.format) : 'unknown';
    throw new DistError(`${where}: dist format ${format} is not the one this aula reads (${DIST_FORMAT}); rebuild with \`aula build\``);
  }
  // format 1 dists written before checksums existed have no `files`: the same answer as an old format
  if (typeof m.files !== 'object' || m.files === null || Array.isArray(m.files)) {
    throw new DistError(`${where}: lists no file checksums (written by an older aula); rebuild with \`aula build\``);
  }
  if (!partsFit(m.event_parts, m.counts?.events)) throw new DistError(`${where}: the event counts are malformed; rebuild with \`aula build\``);
  if (m.build_id !== undefined && (typeof m.build_id !== 'string' || !/^[0-9a-f]{16}$/.test(m.build_id))) {
    throw new DistError(`${where}: build_id is malformed; rebuild with \`aula build\``);
  }
  for (const [rel, digest] of Object.entries(m.files)) {
    if (!validDigest(digest)) throw new DistError(`${where}: the checksum entry of ${rel} is malformed; rebuild with \`aula build\``);
  }
  const field = fieldProblem(m, checkedZone);
  if (field !== null) throw new DistError(`${where}: ${field} is malformed; rebuild with \`aula build\``);
  return m;
}

/** The most parts a manifest may list: a reader lists every part's files, and no more than this many. */
export const MOST_EVENT_PARTS = 99_999;
/** a part's name: an event id (a path segment that cannot leave data/events/) */
const PART_NAME = /^-?[0-9]{1,20}$/;

/**
 * Whether `parts` are event parts as the build lists them: at most MOST_EVENT_PARTS, each named
 * once, of at least one row each (no rows: one empty part). Whether they add up to the count of
 * events is the data's check (store/read/stored-data.ts), which names the data it disagrees with.
 */
function partsFit(parts: unknown, events: unknown): boolean {
  if (!Array.isArray(parts) || parts.length < 1 || parts.length > MOST_EVENT_PARTS || !count(events)) return false;
  const names = new Set<string>();
  for (const p of parts as Partial<EventPart>[]) {
    if (typeof p !== 'object' || p === null || typeof p.name !== 'string' || !PART_NAME.test(p.name) || names.has(p.name)) return false;
    if (!Number.isSafeInteger(p.rows) || p.rows! < (parts.length === 1 ? 0 : 1)) return false;
    names.add(p.name);
  }
  return true;
}

const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
const pageSize = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 1;
/** C0 and C1 controls, and space: none belongs in a URL the build wrote */
const NOT_IN_URL = /[\x00-\x20\x7f-\x9f]/;

function httpUrl(text: unknown): boolean {
  if (typeof text !== 'string' || NOT_IN_URL.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

/**
 * The manifest's fields the server answers from, as the build writes them (site.yaml's own
 * rules): the name of the first that is not, else null. Checked at load, so a manifest edited by
 * hand or on its way through an origin is refused by name instead of loading as ready and then
 * answering 500 (an unknown time zone, a page size of 1.5, a base URL with a line break).
 */
function fieldProblem(m: Manifest, checkedZone?: string): string | null {
  if (typeof m.version !== 'string') return 'version';
  if (typeof m.built_at !== 'string' || Number.isNaN(Date.parse(m.built_at)) || new Date(m.built_at).toISOString() !== m.built_at) return 'built_at';
  if (!httpUrl(m.base_url)) return 'base_url';
  const site = m.site as Partial<Manifest['site']> | null;
  if (typeof site !== 'object' || site === null) return 'site';
  if (typeof site.timezone !== 'string' || (site.timezone !== checkedZone && !isValidZone(site.timezone))) return 'site.timezone';
  if (!pageSize(site.page_size) || !pageSize(site.max_page_size) || site.page_size! > site.max_page_size!) return 'site.page_size';
  if (site.title !== undefined && typeof site.title !== 'string') return 'site.title';
  // (read when a date first needs it: one that is not a table is set aside then, and Intl asked)
  if (site.offsets !== undefined && typeof site.offsets !== 'string') return 'site.offsets';
  const counts = m.counts as Partial<Manifest['counts']> | null;
  for (const key of ['pages', 'categories', 'media', 'directory', 'event_list_pages'] as const) if (!count(counts?.[key])) return `counts.${key}`;
  const list = m.event_list as Partial<Manifest['event_list']> | null;
  if (typeof list?.first !== 'string' || typeof list.further !== 'string' || !pageSize(list.limit)) return 'event_list';
  return null;
}
