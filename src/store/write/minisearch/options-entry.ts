// Entry point of dist/autocomplete/minisearch-options.js: the options to load
// dist/autocomplete/minisearch.json with (see docs/api.md, "With MiniSearch").
export { miniSearchOptions as default, miniSearchOptions as options, tokenize, processTerm, processQueryTerm } from './options.ts';
