// Where the server's data files sit under dist/. Apart from data-files.ts (which renders them at
// build time), so readers such as the edge worker do not pull in the build.
export const DATA_FILES = {
  events: 'data/events.jsonl',
  offsets: 'data/events.offsets.bin',
  columns: 'data/events.columns.json',
  text: 'data/events.text.json',
  categories: 'data/categories.json',
} as const;

export const AUTOCOMPLETE_DIR = 'autocomplete';
