// Reads data/search.bin (store/format/search/search-index-file.ts): its sections viewed in place.
import { DATA_FILES } from '../format/dist-paths.ts';
import { decodeSearchIndex, type SearchIndexData } from '../format/search/search-index-file.ts';
import { corrupt, type DistSource } from './dist-source.ts';

/**
 * The search index of a dist, read through `source` (a verified source checks it against the
 * manifest); `rows`: the events the dist holds. Throws DistError when it is missing, damaged, or
 * made for other rows.
 */
export function readSearchIndex(source: DistSource, rows: number): SearchIndexData {
  const rel = DATA_FILES.search;
  const bytes = source.bytes(rel);
  let data: SearchIndexData;
  try {
    data = decodeSearchIndex(bytes);
  } catch (e) {
    throw corrupt(source, rel, (e as Error).message);
  }
  if (data.rows !== rows) throw corrupt(source, rel, `it indexes ${data.rows} events, the dist holds ${rows}`);
  return data;
}

/** `source` with the search index made by `make` when first read (`aula dev`: only if a request searches). */
export function withSearchFile(source: DistSource, make: () => Uint8Array): DistSource {
  let made: Uint8Array | undefined;
  const rel = DATA_FILES.search;
  const bytes = () => (made ??= make());
  return {
    ...source,
    require: (r) => (r === rel ? undefined : source.require(r)),
    text: (r) => (r === rel ? Buffer.from(bytes()).toString('utf8') : source.text(r)),
    bytes: (r) => (r === rel ? bytes() : source.bytes(r)),
  };
}
