// A dist/ folder loaded for answering: the server's (and the static build's) view of the data.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AUTOCOMPLETE_INDEX_FILE, loadAutocompleteFromFiles } from '../autocomplete/files.ts';
import type { Autocomplete } from '../autocomplete/searcher.ts';
import { mediaUrl, type EventField } from '../render/event.ts';
import { toJson } from '../render/json.ts';
import { columnsShapeProblem, tableFromColumns, textColumnsShapeProblem, type ColumnsFile, type TextColumnsFile } from './columns.ts';
import { AUTOCOMPLETE_DIR, DATA_FILES } from './data-layout.ts';
import type { EventTable } from './event-table.ts';
import { EventRows, serializeEvent } from './event-rows.ts';
import { DistError, parseManifest, type Manifest } from './manifest.ts';
import { rowOffsetsProblem } from './row-offsets.ts';
import { FileRows } from './file-rows.ts';
import { checkDigest, verifiedSource } from './verified-source.ts';

export interface Dataset {
  manifest: Manifest;
  /** the base URL links and media URLs use: the build's, or the server's override */
  baseUrl: string;
  site: Manifest['site'];
  events: { table: EventTable; rows: EventRows };
  categories: { ids: ReadonlySet<number>; json: ReadonlyMap<number, string> };
  autocomplete: Autocomplete;
}

/** Where a dataset's files come from: a dist/ folder, or the build's files before they are written. */
export interface DistSource {
  /** how to name a file in messages */
  where(rel: string): string;
  text(rel: string): string;
  bytes(rel: string): Uint8Array;
  /** throws the same DistError as reading would, without reading */
  require(rel: string): void;
  /** the very bytes the manifest's checksums were just computed from (the build's): not hashed again */
  trusted?: boolean;
  /** opens a file to be read by offset (a dist/ folder's events.jsonl): its rows stay out of memory */
  open?(rel: string): FileRows;
}

function missing(where: string, e: unknown): DistError {
  const code = (e as NodeJS.ErrnoException).code;
  return new DistError(`${where}: ${code === 'ENOENT' ? 'missing' : (e as Error).message}; rebuild with \`aula build\``);
}

export function directorySource(dir: string): DistSource {
  const where = (rel: string) => join(dir, rel);
  const bytes = (rel: string) => {
    try {
      return readFileSync(where(rel));
    } catch (e) {
      throw missing(where(rel), e);
    }
  };
  const require = (rel: string) => {
    try {
      statSync(where(rel));
    } catch (e) {
      throw missing(where(rel), e);
    }
  };
  const open = (rel: string) => {
    try {
      return new FileRows(where(rel));
    } catch (e) {
      throw missing(where(rel), e);
    }
  };
  return { where, bytes, require, open, text: (rel) => bytes(rel).toString('utf8') };
}

export function memorySource(files: ReadonlyMap<string, string | Uint8Array>, label: string): DistSource {
  const where = (rel: string) => `${label}/${rel}`;
  const get = (rel: string) => {
    const content = files.get(rel);
    if (content === undefined) throw missing(where(rel), Object.assign(new Error('missing'), { code: 'ENOENT' }));
    return content;
  };
  return {
    where,
    trusted: true,
    require: (rel) => void get(rel),
    text: (rel) => {
      const c = get(rel);
      return typeof c === 'string' ? c : Buffer.from(c).toString('utf8');
    },
    bytes: (rel) => {
      const c = get(rel);
      return typeof c === 'string' ? Buffer.from(c) : c;
    },
  };
}

function corrupt(source: DistSource, rel: string, problem: string): DistError {
  return new DistError(`${source.where(rel)}: ${problem}; rebuild with \`aula build\``);
}

function parseJson<T>(source: DistSource, rel: string, text = source.text(rel)): T {
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new DistError(`${source.where(rel)}: not valid JSON (${(e as Error).message}); rebuild with \`aula build\``);
  }
}

/** A media URL written with one base URL, rewritten for another. */
function rebaseRows(rows: EventRows, from: string, to: string): EventRows {
  const prefix = mediaUrl(from, 0).slice(0, -2);
  const rebase = (file: { url: string } | null) => {
    if (file && file.url.startsWith(prefix)) file.url = to + file.url.slice(from.length);
  };
  return EventRows.from(
    Array.from({ length: rows.length }, (_, row) => {
      const obj = JSON.parse(rows.json(row)) as Record<EventField, any>;
      rebase(obj.header_image);
      obj.media.forEach(rebase);
      obj.related_media.forEach((r: { media: { url: string } }) => rebase(r.media));
      return serializeEvent(obj);
    }),
  );
}

/** Reads what the dataset defers (the text columns); throws DistError when that part is corrupt. */
export function warmDataset(ds: Dataset): void {
  void ds.events.table.columns.text;
}

/** Loads a dist/ folder; `baseUrl` overrides the one it was built with. Throws DistError when the dist is incomplete or corrupt. */
export function loadDataset(dir: string, options: { baseUrl?: string } = {}): Dataset {
  return datasetFrom(directorySource(dir), options);
}

export function datasetFrom(dist: DistSource, options: { baseUrl?: string } = {}): Dataset {
  const manifest = parseManifest(dist.text('manifest.json'), dist.where('manifest.json'));
  const source = dist.trusted ? dist : verifiedSource(dist, manifest);
  // From a folder the rows are read by offset when answering (see row-source.ts): the file is
  // read whole once here, through the descriptor kept, to check it, then dropped from memory.
  const file = dist.open?.(DATA_FILES.events);
  try {
    return datasetWith(dist, source, manifest, file, options);
  } catch (e) {
    file?.close();
    throw e;
  }
}

function datasetWith(dist: DistSource, source: DistSource, manifest: Manifest, file: FileRows | undefined, options: { baseUrl?: string }): Dataset {
  let lines: Uint8Array;
  if (file) {
    lines = file.readAll();
    if (!dist.trusted) checkDigest(dist, manifest, DATA_FILES.events, lines);
  } else {
    lines = source.bytes(DATA_FILES.events);
  }
  const offsetBytes = source.bytes(DATA_FILES.offsets);
  if (offsetBytes.byteLength % 4 !== 0) throw corrupt(source, DATA_FILES.offsets, 'its length is not a whole number of offsets');
  const starts = new Uint32Array(offsetBytes.buffer.slice(offsetBytes.byteOffset, offsetBytes.byteOffset + offsetBytes.byteLength));
  let rows: EventRows;
  try {
    rows = new EventRows(file ?? Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength), starts);
  } catch (e) {
    if (e instanceof DistError) throw e;
    throw corrupt(source, DATA_FILES.offsets, `does not match ${DATA_FILES.events}`);
  }
  const offsetsProblem = rowOffsetsProblem(lines, starts);
  if (offsetsProblem) throw corrupt(source, DATA_FILES.offsets, `does not match ${DATA_FILES.events} (${offsetsProblem})`);
  // checked now, read when first needed: a dist must not turn out incomplete under load
  source.require(DATA_FILES.text);
  const columns = parseJson<ColumnsFile>(source, DATA_FILES.columns);
  const shape = columnsShapeProblem(columns, rows.length);
  if (shape) throw corrupt(source, DATA_FILES.columns, shape);
  const table = tableFromColumns(columns, () => {
    // deferred: read unverified so a damaged file is named by what is wrong with it, then checked
    const bytes = dist.bytes(DATA_FILES.text);
    const text = parseJson<TextColumnsFile>(source, DATA_FILES.text, Buffer.from(bytes).toString('utf8'));
    const problem = textColumnsShapeProblem(text, rows.length);
    if (problem) throw corrupt(source, DATA_FILES.text, problem);
    if (!dist.trusted) checkDigest(dist, manifest, DATA_FILES.text, bytes);
    return text;
  });
  if (table.length !== rows.length || rows.length !== manifest.counts.events) {
    throw new DistError(`${source.where('data')}: event data is incomplete (${rows.length} rows, ${table.length} columns, manifest says ${manifest.counts.events}); rebuild with \`aula build\``);
  }
  const baseUrl = (options.baseUrl ?? manifest.base_url).replace(/\/+$/, '');
  if (baseUrl !== manifest.base_url) {
    // rewritten rows are new bytes, held in memory; the file is not needed any more
    rows = rebaseRows(rows, manifest.base_url, baseUrl);
    file?.close();
  }
  const categories = parseJson<{ id: number }[]>(source, DATA_FILES.categories);
  if (!Array.isArray(categories) || !categories.every((c) => typeof c === 'object' && c !== null && Number.isInteger(c.id))) {
    throw corrupt(source, DATA_FILES.categories, 'expected a list of categories with integer ids');
  }
  let autocomplete: Autocomplete;
  try {
    autocomplete = loadAutocompleteFromFiles((rel) => source.text(`${AUTOCOMPLETE_DIR}/${rel}`));
    autocomplete.search('a', null).page(0, 1);
  } catch (e) {
    if (e instanceof DistError) throw e;
    throw corrupt(source, `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`, `the index cannot be read (${(e as Error).message})`);
  }
  return {
    manifest,
    baseUrl,
    site: manifest.site,
    events: { table, rows },
    categories: {
      ids: new Set(categories.map((c) => c.id)),
      json: new Map(categories.map((c) => [c.id, toJson(c)])),
    },
    autocomplete,
  };
}
