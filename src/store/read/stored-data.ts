// A dist/ folder read back: the stored event rows, columns and categories, checked for shape.
// What the query engine adds on top (the autocomplete searcher) is src/query/dataset.ts.
import { useZoneTable } from '../../time/offsets.ts';
import { toJson } from '../../util/json.ts';
import { calendarPartFiles, DATA_FILES, eventOffsetsFile, eventOffsetsFiles, eventPartFiles, partFirsts, partOfRow } from '../format/dist-paths.ts';
import type { EventTable } from '../format/event-table.ts';
import { EventRows, FIELD_COUNT } from '../format/event-rows.ts';
import { partBounds } from '../format/event-parts.ts';
import { DistError, parseManifest, type Manifest } from '../format/manifest.ts';
import { joinedView, partRows, partStarts, spansOf, type RowSource } from '../format/row-source.ts';
import { corrupt, type DistSource } from './dist-source.ts';
import { fitIn16Bits, rowOffsetsFault, rowOffsetsProblem } from './row-offsets.ts';
import { PartedRows } from './parted-rows.ts';
import { rebaseRows } from './rebase-rows.ts';
import { FileRows, SERVED_HEAD_BYTES } from './file-rows.ts';
import { readColumns } from './column-files.ts';
import { calendarOfParts, readCalendar } from './calendar-file.ts';
import { FormatError } from '../format/sections.ts';
import { partsOfFile, type FileInParts } from './sections.ts';
import type { CalendarEntries } from '../format/calendar-file.ts';
import { checkDigest, verifiedSource, type Crc32, type Sha256 } from './verified-source.ts';
import type { RowsJob, VerifyRows } from './rows-job.ts';
import { gatherNeeds, once, requireAll, zeroedAsWritten } from './per-need.ts';

export interface StoredData {
  manifest: Manifest;
  /** the base URL links and media URLs use: the build's, or the server's override */
  baseUrl: string;
  site: Manifest['site'];
  events: { table: EventTable; rows: EventRows; calendar: CalendarEntries };
  categories: { ids: ReadonlySet<number>; json: ReadonlyMap<number, string> };
  /** closes the files it holds open (the rows', the calendar's): a dataset replaced, or one a failed load made */
  close(): void;
}


function parseJson<T>(source: DistSource, rel: string, text = source.text(rel)): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    // (not the parser's message: it quotes the text, which a remote origin may have sent)
    throw new DistError(`${source.where(rel)}: not valid JSON; rebuild with \`aula build\``);
  }
}

const STRIDE = FIELD_COUNT + 1;

/**
 * Where each part starts in the rows' bytes (partBounds) checked against the parts' sizes the
 * manifest lists: a part of another length than its offsets say names that part's offsets file.
 */
function partsFit(source: DistSource, manifest: Manifest, parts: readonly string[], bounds: readonly number[]): void {
  parts.forEach((rel, i) => {
    // (`aula dev`'s manifest lists no files: its parts are the rows just made)
    if (Object.hasOwn(manifest.files, rel) && manifest.files[rel].bytes !== bounds[i + 1] - bounds[i]) throw partMisfit(source, manifest, i, rowsFolder(parts));
  });
}

/** Part `i`'s offsets say another length than the part has. */
const partMisfit = (source: DistSource, manifest: Manifest, i: number, rowsName: string) =>
  corrupt(source, offsetsOf(manifest, i), `does not match the event rows in ${rowsName} (part ${i} is not its rows' length)`);

/** Part `i`'s offsets file. */
const offsetsOf = (manifest: Manifest, i: number) => eventOffsetsFile(manifest.event_parts[i].name);

/**
 * rowOffsetsProblem over rows held as parts, part by part (as the manifest lists them): the rows
 * in each must fit their offsets. The problem names the part's offsets file.
 */
function partsOffsetsFault(parts: readonly Uint8Array[], starts: Uint32Array | Uint16Array, manifest: Manifest): { rel: string; problem: string } | null {
  const firsts = partFirsts(manifest.event_parts);
  for (let i = 0; i < parts.length; i++) {
    const problem = rowOffsetsProblem(parts[i], starts.subarray(firsts[i] * STRIDE, firsts[i + 1] * STRIDE), firsts[i]);
    if (problem) return { rel: offsetsOf(manifest, i), problem };
  }
  return null;
}

/** Reads the stored data; `baseUrl` overrides the one it was built with. Throws DistError when the dist is incomplete or corrupt. */
export interface StoreOptions {
  /** overrides the base URL the dist was built with */
  baseUrl?: string;
  /** verifies the files of a source that is not `trusted`; passed in so the edge bundle needs no node:crypto */
  sha256?: Sha256;
  /** a source on this machine's disk: each file the manifest lists a CRC-32 for is checked by it instead (FileDigest.crc32) */
  crc32?: Crc32;
  /**
   * checks the event rows read from a folder elsewhere (the server: on a worker thread, while this
   * thread reads the rest); the caller awaits it before serving. Without it they are checked here.
   */
  verifyRows?: VerifyRows;
  /** manifest.json of the source, already read and parsed by the caller (the edge reads it first, to size the data) */
  manifest?: Manifest;
  /** each column read when an answer first uses it, as a source loading per need has them (not all checked at load) */
  lazy?: boolean;
}

/** How many rows part `i` holds. */
const rowsOfPart = (manifest: Manifest, i: number) => manifest.event_parts[i].rows;

/** `bytes` of offsets as u32 values: a view where aligned (a file read whole is), else a copy. */
function u32(bytes: Uint8Array): Uint32Array {
  if (bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.byteLength & ~3)));
}

/** Part `i`'s offsets, `bytes` (its offsets file as read): its part's rows' worth, else the file is refused. */
function partOffsets(source: DistSource, manifest: Manifest, i: number, bytes: Uint8Array): Uint32Array {
  const rows = rowsOfPart(manifest, i);
  if (bytes.byteLength !== rows * STRIDE * 4) {
    throw corrupt(source, offsetsOf(manifest, i), `holds ${bytes.byteLength} bytes of offsets, its part's ${rows} rows need ${rows * STRIDE * 4}`);
  }
  return u32(bytes);
}

/**
 * Refuses, before reading them, offsets files whose sizes in the manifest do not add up to its
 * count of events (a manifest of other data), and an offsets file it does not list.
 */
function offsetsListed(source: DistSource, manifest: Manifest): void {
  partsListed(source, manifest);
  let rows = 0;
  for (const rel of eventOffsetsFiles(manifest)) {
    if (!Object.hasOwn(manifest.files, rel)) throw corrupt(source, rel, 'is not listed in manifest.json');
    rows += manifest.files[rel].bytes / (STRIDE * 4);
  }
  if (rows !== manifest.counts.events) throw incomplete(source, rows, manifest);
}

/** Refuses parts whose rows in the manifest do not add up to its count of events: the manifest is of other data. */
function partsListed(source: DistSource, manifest: Manifest): void {
  const rows = manifest.event_parts.reduce((sum, p) => sum + p.rows, 0);
  if (rows !== manifest.counts.events) throw incomplete(source, rows, manifest);
}

const incomplete = (source: DistSource, rows: number, manifest: Manifest) =>
  new DistError(`${source.where('data')}: event data is incomplete (${rows} rows, manifest says ${manifest.counts.events}); rebuild with \`aula build\``);

/** The per-field offsets of the event rows (each part's offsets file end to end, read through `source`). */
export function eventOffsets(source: DistSource, manifest: Manifest): Uint32Array | Uint16Array {
  partsListed(source, manifest);
  const files = eventOffsetsFiles(manifest).map((rel) => source.bytes(rel));
  const rows = files.reduce((sum, bytes) => sum + bytes.byteLength / (STRIDE * 4), 0);
  // offsets of another number of rows than the manifest's: the manifest is of other data
  if (rows !== manifest.counts.events) throw incomplete(source, Math.floor(rows), manifest);
  const views = files.map((bytes, i) => partOffsets(source, manifest, i, bytes));
  // copied once, into 16 bits where every offset fits (compactOffsets)
  const narrow = views.every(fitIn16Bits);
  const all = narrow ? new Uint16Array(manifest.counts.events * STRIDE) : new Uint32Array(manifest.counts.events * STRIDE);
  const firsts = partFirsts(manifest.event_parts);
  views.forEach((view, i) => all.set(view, firsts[i] * STRIDE));
  return all;
}

/** The load check of the event rows (see rows-job.ts): their files as the manifest lists them, and the offsets. */
export function rowsJob(source: DistSource, manifest: Manifest, starts: Uint32Array | Uint16Array): RowsJob {
  const parts = eventPartFiles(manifest);
  const files = parts.map((rel) => {
    if (!Object.hasOwn(manifest.files, rel)) throw corrupt(source, rel, 'is not listed in manifest.json');
    return { rel, ...manifest.files[rel] };
  });
  const offsetsRels = eventOffsetsFiles(manifest);
  const offsetsSha256 = offsetsRels.map((rel) => (Object.hasOwn(manifest.files, rel) ? manifest.files[rel].sha256 : ''));
  return { files, starts, offsetsRels, firsts: partFirsts(manifest.event_parts), offsetsSha256, rowsName: `the event rows in ${rowsFolder(parts)}` };
}

/** The folder of the event parts, as messages name it (`data/events/`). */
const rowsFolder = (parts: readonly string[]) => `${parts[0].slice(0, parts[0].lastIndexOf('/'))}/`;

export function readStore(dist: DistSource, options: StoreOptions = {}): StoredData {
  const manifest = options.manifest ?? parseManifest(dist.text('manifest.json'), dist.where('manifest.json'));
  // the site zone's changes as the build found them, for every runtime alike: a date filter answers
  // as the rows were written, and asks nothing of Intl (a fresh isolate's first formatter would
  // cost more than the rest of its answer)
  useZoneTable(manifest.site.timezone, manifest.site.offsets);
  const { sha256, crc32 } = options;
  if (!dist.trusted && !sha256) throw new Error('readStore: a source that is not trusted needs options.sha256');
  const source = dist.trusted ? dist : verifiedSource(dist, manifest, sha256!, crc32);
  // From a folder the rows are read by offset when answering (see row-source.ts): the parts are
  // read whole once here, through the descriptors kept, to check them, then dropped from memory.
  const parts = eventPartFiles(manifest);
  if (dist.perNeed) return storedPerNeed(dist, manifest, parts, options);
  const file = dist.open?.(parts);
  try {
    return storedWith(dist, source, manifest, parts, file, options);
  } catch (e) {
    file?.close();
    throw e;
  }
}

/** The checks of storedWith, made per need: the event rows when first read, each part when a read first reaches it. */
function storedPerNeed(source: DistSource, manifest: Manifest, parts: readonly string[], options: StoreOptions): StoredData {
  const baseUrl = (options.baseUrl ?? manifest.base_url).replace(/\/+$/, '');
  const count = manifest.counts.events;
  const stored = once(() => rowsPerNeed(source, manifest, parts));
  const rows = once(() => {
    const made = stored();
    if (baseUrl === manifest.base_url) return made.rows;
    // every row is rewritten: every part first, so that no row is rewritten twice while they arrive
    for (let i = 0; i < parts.length; i++) made.part(i);
    return rebaseRows(made.rows, manifest.base_url, baseUrl);
  });
  const calendar = once(() => {
    partsListed(source, manifest);
    return readCalendar(source, manifest.event_parts);
  });
  return {
    manifest,
    baseUrl,
    site: manifest.site,
    events: {
      table: readColumns(source, count),
      get rows() {
        return rows();
      },
      get calendar() {
        return calendar();
      },
    },
    categories: categoriesOf(source),
    // (a source read per need holds its bytes in memory: no file is open)
    close() {},
  };
}

/**
 * The event rows of a source loading per need: each part's offsets when a row of the part is
 * first read (PartedRows), checked against the part's size in the manifest, and each row's bytes
 * when it is first read, checked then against its offsets (the part's size and checksum were
 * checked by the source): an answer's rows are checked, not every row of the parts they are in.
 * A part whose manifest entry lists its blocks, from a source that reads such files in parts (an
 * edge isolate's), is not fetched whole: the blocks of the rows an answer reads are, each checked
 * against its own sum by the source.
 */
function rowsPerNeed(source: DistSource, manifest: Manifest, parts: readonly string[]): { rows: EventRows; part(i: number): Buffer } {
  const rowsName = rowsFolder(parts);
  const count = manifest.counts.events;
  const firsts = partFirsts(manifest.event_parts);
  offsetsListed(source, manifest);
  const sizes = parts.map((rel) => {
    if (!Object.hasOwn(manifest.files, rel)) throw corrupt(source, rel, 'is not listed in manifest.json');
    return manifest.files[rel].bytes;
  });
  const begins = partStarts(sizes);
  // over every row, filled a part at a time as answers reach them
  const starts = new Uint32Array(zeroedAsWritten(count * STRIDE * Uint32Array.BYTES_PER_ELEMENT));
  const lineStarts = new Float64Array(zeroedAsWritten(count * Float64Array.BYTES_PER_ELEMENT));
  const blocked = parts.map((rel) => source.sectioned !== undefined && manifest.files[rel].blocks !== undefined);
  const held: (FileInParts | null | undefined)[] = [];
  /** part `i` as the source reads it in parts, or null (read whole): made when a row of it is first read */
  const inParts = (i: number) => (held[i] ??= blocked[i] ? partsOfFile(source.sectioned!(parts[i])) : null);
  const offsets = parts.map((_, i) =>
    once(() => {
      // a part's rows are read after its offsets: both are asked for in one round (a part read in
      // parts: the offsets, which say where its rows' blocks are)
      const rel = offsetsOf(manifest, i);
      requireAll(source, inParts(i) === null ? [rel, parts[i]] : [rel]);
      const own = partOffsets(source, manifest, i, source.bytes(rel));
      const first = firsts[i];
      const rows = own.length / STRIDE;
      // the part is its rows, a newline after each but the dist's last
      let at = 0;
      for (let row = 0; row < rows; row++) {
        lineStarts[first + row] = begins[i] + at;
        at += own[row * STRIDE + FIELD_COUNT] + 1;
      }
      const length = i === parts.length - 1 ? Math.max(0, at - 1) : at;
      if (length !== sizes[i]) throw partMisfit(source, manifest, i, rowsName);
      starts.set(own, first * STRIDE);
    }),
  );
  /** the parts read whole, once read */
  const whole: (Uint8Array | undefined)[] = [];
  /** bytes [from, to) of part `i` (read in parts: throws FileNeeded for the blocks not at hand) */
  const span = (i: number, from: number, to: number): Uint8Array => {
    offsets[i]();
    const inPart = inParts(i);
    if (inPart === null) return (whole[i] ??= source.bytes(parts[i])).subarray(from, to);
    inPart.need([[from, to]]);
    return inPart.at(from, to);
  };
  const part = (i: number): Buffer => {
    const bytes = span(i, 0, sizes[i]);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
  /** the bytes of row `row` and the newline after it (the dist's last row has none), within its part */
  const rowSpan = (row: number): [part: number, from: number, to: number] => {
    const i = partOfRow(firsts, row);
    const at = lineStarts[row] - begins[i];
    return [i, at, at + starts[row * STRIDE + FIELD_COUNT] + (row === count - 1 ? 0 : 1)];
  };
  /** a row's bytes against its offsets */
  const checkRow = (row: number) => {
    const [i, from, to] = rowSpan(row);
    const fault = rowOffsetsFault(span(i, from, to), starts.subarray(row * STRIDE, (row + 1) * STRIDE), row - firsts[i]);
    if (fault) throw corrupt(source, offsetsOf(manifest, i), `does not match the event rows in ${rowsName} (part ${i}: ${fault.problem})`);
  };
  /** the blocks of rows read together, asked for in one round */
  const fetchRows = (rows: readonly number[]) => {
    const ranges = new Map<number, [number, number][]>();
    for (const row of rows) {
      const [i, from, to] = rowSpan(row);
      if (inParts(i) === null) continue;
      let list = ranges.get(i);
      if (list === undefined) ranges.set(i, (list = []));
      list.push([from, to]);
    }
    if (ranges.size > 0) gatherNeeds([...ranges].map(([i, list]) => () => inParts(i)!.need(list)));
  };
  const rows = new PartedRows(spansOf(sizes, span), starts, lineStarts, firsts, (i) => offsets[i](), checkRow, blocked.includes(true) ? fetchRows : undefined);
  return { rows, part };
}

function categoriesOf(source: DistSource): StoredData['categories'] {
  const categories = parseJson<{ id: number }[]>(source, DATA_FILES.categories);
  if (!Array.isArray(categories) || !categories.every((c) => typeof c === 'object' && c !== null && Number.isInteger(c.id))) {
    throw corrupt(source, DATA_FILES.categories, 'expected a list of categories with integer ids');
  }
  return {
    ids: new Set(categories.map((c) => c.id)),
    json: new Map(categories.map((c) => [c.id, toJson(c)])),
  };
}

/**
 * `bytes` cut at `bounds` (partBounds). Not a closure within storedWith: a closure there over the
 * rows' bytes would place them in its scope, which the dataset's getters keep, so the rows read
 * whole to be checked would stay held as long as the dataset (~235 MB at 100k events).
 */
function cutAt(bytes: Uint8Array, bounds: readonly number[]): Uint8Array[] {
  return bounds.slice(1).map((end, i) => bytes.subarray(bounds[i], end));
}

function storedWith(dist: DistSource, source: DistSource, manifest: Manifest, parts: readonly string[], file: FileRows | undefined, options: StoreOptions): StoredData {
  const { sha256, crc32 } = options;
  const baseUrl = (options.baseUrl ?? manifest.base_url).replace(/\/+$/, '');
  // (rows rewritten for another base URL are rewritten in their bytes, never parsed: a damaged row
  // is found by the check there as by the check here, and nothing is served before it passed)
  const elsewhere = file && !dist.trusted && options.verifyRows ? options.verifyRows : undefined;
  /** the rows' bytes as checked here: whole, or the parts held apart (none: checked elsewhere) */
  let lines: Uint8Array[] = [];
  let rowSource: RowSource | Buffer;
  if (file) {
    rowSource = file;
    // answering from a dist (the build's own staging reads its pages in order: nothing to hold)
    if (!dist.trusted) file.holdHead(SERVED_HEAD_BYTES);
    // A trusted folder (the build's staging, read back to answer its pages) holds the rows the
    // offsets were just made with: nothing to check, and reading them whole there would leave
    // every row's bytes as garbage through the build's "answer pages".
    if (!elsewhere && !dist.trusted) {
      const all = file.readAll();
      parts.forEach((rel, i) => checkDigest(dist, manifest, rel, file.part(all, i), sha256!, crc32));
      lines = [all];
    }
  } else {
    const bytes = parts.map((rel) => source.bytes(rel));
    const joined = joinedView(bytes);
    // parts fetched one by one (remote, edge) are kept and checked as they are, never copied into one
    lines = joined ? [joined] : bytes;
    rowSource = joined ?? partRows(bytes);
  }
  const rowsName = rowsFolder(parts);
  const starts = eventOffsets(source, manifest);
  // before the rows are measured against the offsets: a part of the wrong size is named as such
  if (elsewhere) elsewhere({ ...rowsJob(source, manifest, starts), opened: file!.identities() });
  const bounds = partBounds(starts, partFirsts(manifest.event_parts));
  partsFit(source, manifest, parts, bounds);
  let rows: EventRows;
  try {
    rows = new EventRows(rowSource, starts);
  } catch (e) {
    if (e instanceof DistError) throw e;
    throw corrupt(source, offsetsOf(manifest, 0), `does not match the event rows in ${rowsName}`);
  }
  // the rows read whole are checked part by part, each part against its offsets file
  const held = lines.length === 1 && parts.length > 1 ? cutAt(lines[0], bounds) : lines;
  const fault = held.length === 0 || dist.rowsMadeHere ? null : partsOffsetsFault(held, starts, manifest);
  if (fault) throw corrupt(source, fault.rel, `does not match the event rows in ${rowsName} (${fault.problem})`);
  // the columns and their indexes, as the build wrote them (each file checked against its checksum)
  const table = readColumns(source, rows.length, options.lazy);
  if (baseUrl !== manifest.base_url) {
    // rewritten rows are new bytes, held in memory; the file is not needed any more
    rows = rebaseRows(rows, manifest.base_url, baseUrl);
    file?.close();
  }
  const categories = categoriesOf(source);
  const count = rows.length;
  if (!file) return { manifest, baseUrl, site: manifest.site, events: { table, rows, calendar: readCalendar(source, manifest.event_parts) }, categories, close: () => rows.close() };
  const calendar = pinnedCalendar(dist, manifest, count, sha256, crc32);
  return {
    manifest,
    baseUrl,
    site: manifest.site,
    events: {
      table,
      rows,
      get calendar() {
        return calendar.read();
      },
    },
    categories,
    close() {
      rows.close();
      calendar.close();
    },
  };
}

/**
 * The calendar of a dist/ folder, checked now (unless the folder is trusted: the build's staging)
 * and read again when an answer first needs it: only
 * the iCalendar answers read it, and held from the start it is the largest data in memory. Its descriptors stay on the parts that were checked, as the rows' do (file-rows.ts).
 */
function pinnedCalendar(dist: DistSource, manifest: Manifest, rows: number, sha256: Sha256 | undefined, crc32: Crc32 | undefined): { read: () => CalendarEntries; close(): void } {
  const rels = calendarPartFiles(manifest);
  const file = dist.open!(rels);
  const read = (part: (i: number) => Uint8Array) => calendarOfParts(manifest.event_parts, part, (rel, e) => corrupt(dist, rel, e.message));
  // (a trusted folder, the build's staging, holds the calendar just written: checked by no read
  // now, which would hold a second copy of the largest data through the build's pages)
  if (!dist.trusted) {
    // bytes read ahead (a reload's) are checked where they are, their digests known; else each part
    // is read into one buffer, checked there and overwritten by the next: the check then takes no
    // fresh memory the length of the calendar, which it does not keep
    const all = file.hasAhead() ? file.readAll() : null;
    const buffer = all ?? Buffer.allocUnsafeSlow(file.longestPart());
    const checked = (i: number) => {
      const bytes = all ? file.part(all, i) : file.partInto(buffer, i);
      checkDigest(dist, manifest, rels[i], bytes, sha256!, crc32);
      return bytes;
    };
    try {
      read(checked);
    } catch (e) {
      file.close();
      throw e;
    }
  }
  return {
    read: once(() => {
      const all = file.readAll();
      return read((i) => file.part(all, i));
    }),
    close: () => file.close(),
  };
}
