// Where each data file lives in dist/, relative to it: the one list the writer and the reader share.

export const DATA_FILES = {
  events: 'data/events.jsonl',
  offsets: 'data/events.offsets.bin',
  columns: 'data/events.columns.json',
  text: 'data/events.text.json',
  categories: 'data/categories.json',
} as const;

export const AUTOCOMPLETE_DIR = 'autocomplete';

/** File names under dist/autocomplete/. */
export const AUTOCOMPLETE_INDEX_FILE = 'index.json';
export const AUTOCOMPLETE_MODULE_FILE = 'autocomplete.js';

/** The files under dist/ the API loads besides manifest.json; the rest of dist/ is for static hosts and CDNs. */
export const LOADED_FILES: readonly string[] = [...Object.values(DATA_FILES), `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`];
