// Entry point of dist/autocomplete/autocomplete.js, the serverless autocomplete for static
// sites. It runs the very same searcher on the very same index as the server, so a q/m pair
// gives the same count and the same suggestions in the same order. Usage:
//
//   import { createAutocompleteFromUrl } from './autocomplete/autocomplete.js';
//   const ac = await createAutocompleteFromUrl();          // fetches ./index.json next to it
//   const { count, results } = ac.search('mül', 'campus.Person', 20, 0);
import { createAutocomplete, type Autocomplete } from './searcher.ts';
import { parseModels } from '../../model/directory-models.ts';

export { parseModels } from '../../model/directory-models.ts';
export { renderSuggestion } from '../../store/format/autocomplete-suggestion.ts';

export interface Suggestion {
  id: number;
  ctype: string;
  presentation: string;
  level_id: number | null;
  room_id: number | null;
}

/** The API envelope without next/previous (a static page builds its own paging). */
export interface StaticResult {
  count: number;
  results: Suggestion[];
}

export interface StaticAutocomplete {
  readonly size: number;
  /**
   * q: as the q parameter; m: as the m parameter (comma-separated, case-insensitive).
   * limit defaults to 20 (1..1000), offset to 0. Throws InvalidModelsError for an unknown model.
   */
  search(q?: string, m?: string, limit?: number, offset?: number): StaticResult;
}

/** An unknown model in m; the message is the one the server answers with status 400. */
export class InvalidModelsError extends Error {
  override name = 'InvalidModelsError';
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

let current: StaticAutocomplete | null = null;

export function loadAutocomplete(indexJsonText: string): StaticAutocomplete {
  const ac = wrap(createAutocomplete(indexJsonText));
  current = ac;
  return ac;
}

/** Fetches and loads the index; by default the index.json next to this module. */
export async function createAutocompleteFromUrl(url: string | URL = new URL('./index.json', import.meta.url)): Promise<StaticAutocomplete> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`autocomplete index: ${res.status} ${res.statusText} for ${String(url)}`);
  return loadAutocomplete(await res.text());
}

/** Searches the most recently loaded index. */
export function search(q?: string, m?: string, limit?: number, offset?: number): StaticResult {
  if (current === null) throw new Error('autocomplete: load an index first (loadAutocomplete / createAutocompleteFromUrl)');
  return current.search(q, m, limit, offset);
}

function wrap(ac: Autocomplete): StaticAutocomplete {
  return {
    size: ac.size,
    search(q, m, limit, offset) {
      const parsed = parseModels(m);
      if (!parsed.ok) throw new InvalidModelsError(parsed.message);
      const result = ac.search(q, parsed.models);
      const rows = result.page(toOffset(offset), toLimit(limit));
      return { count: result.count, results: rows.map((r) => JSON.parse(r) as Suggestion) };
    },
  };
}

function toLimit(limit: number | undefined): number {
  if (limit === undefined || !(limit >= 1)) return DEFAULT_LIMIT;
  return Math.min(Math.floor(limit), MAX_LIMIT);
}

function toOffset(offset: number | undefined): number {
  if (offset === undefined || !(offset > 0)) return 0;
  return Math.floor(offset);
}
