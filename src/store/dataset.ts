// A dist/ folder loaded for answering: the server's (and the static build's) view of the data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAutocomplete, type Autocomplete } from '../autocomplete/index.ts';
import { mediaUrl, type EventField } from '../render/event.ts';
import { toJson } from '../render/json.ts';
import { tableFromColumns, type ColumnsFile } from './columns.ts';
import { AUTOCOMPLETE_DIR, DATA_FILES } from './data-files.ts';
import type { EventTable } from './event-table.ts';
import { EventRows, serializeEvent } from './event-rows.ts';
import { DistError, parseManifest, type Manifest } from './manifest.ts';

export interface Dataset {
  manifest: Manifest;
  /** the base URL links and media URLs use: the build's, or the server's override */
  baseUrl: string;
  site: Manifest['site'];
  events: { table: EventTable; rows: EventRows };
  categories: { ids: ReadonlySet<number>; json: ReadonlyMap<number, string> };
  autocomplete: Autocomplete;
}

function read(dir: string, rel: string): Buffer {
  try {
    return readFileSync(join(dir, rel));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DistError(`${join(dir, rel)}: ${code === 'ENOENT' ? 'missing' : (e as Error).message}; rebuild with \`aula build\``);
  }
}

function parseJson<T>(dir: string, rel: string): T {
  try {
    return JSON.parse(read(dir, rel).toString('utf8')) as T;
  } catch (e) {
    if (e instanceof DistError) throw e;
    throw new DistError(`${join(dir, rel)}: not valid JSON (${(e as Error).message}); rebuild with \`aula build\``);
  }
}

/** A media URL written with one base URL, rewritten for another. */
function rebaseRows(rows: EventRows, from: string, to: string): EventRows {
  const prefix = mediaUrl(from, 0).slice(0, -2);
  const rebase = (file: { url: string } | null) => {
    if (file && file.url.startsWith(prefix)) file.url = to + file.url.slice(from.length);
  };
  return EventRows.from(
    rows.json.map((text) => {
      const obj = JSON.parse(text) as Record<EventField, any>;
      rebase(obj.header_image);
      obj.media.forEach(rebase);
      obj.related_media.forEach((r: { media: { url: string } }) => rebase(r.media));
      return serializeEvent(obj);
    }),
  );
}

/** Loads a dist/ folder; `baseUrl` overrides the one it was built with. Throws DistError when the dist is incomplete or corrupt. */
export function loadDataset(dir: string, options: { baseUrl?: string } = {}): Dataset {
  const manifest = parseManifest(read(dir, 'manifest.json').toString('utf8'), join(dir, 'manifest.json'));
  const lines = read(dir, DATA_FILES.events).toString('utf8');
  const json = lines === '' ? [] : lines.split('\n');
  const offsetBytes = read(dir, DATA_FILES.offsets);
  const starts = new Uint32Array(offsetBytes.buffer.slice(offsetBytes.byteOffset, offsetBytes.byteOffset + offsetBytes.byteLength));
  let rows: EventRows;
  try {
    rows = new EventRows(json, starts);
  } catch {
    throw new DistError(`${join(dir, DATA_FILES.offsets)}: does not match ${DATA_FILES.events}; rebuild with \`aula build\``);
  }
  const table = tableFromColumns(parseJson<ColumnsFile>(dir, DATA_FILES.columns));
  if (table.length !== rows.length || rows.length !== manifest.counts.events) {
    throw new DistError(`${dir}: event data is incomplete (${rows.length} rows, ${table.length} columns, manifest says ${manifest.counts.events}); rebuild with \`aula build\``);
  }
  const baseUrl = (options.baseUrl ?? manifest.base_url).replace(/\/+$/, '');
  if (baseUrl !== manifest.base_url) rows = rebaseRows(rows, manifest.base_url, baseUrl);
  const categories = parseJson<{ id: number }[]>(dir, DATA_FILES.categories);
  const autocomplete = loadAutocomplete((rel) => read(dir, `${AUTOCOMPLETE_DIR}/${rel}`).toString('utf8'));
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
