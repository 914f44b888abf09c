// The autocomplete search (interface.md §4.3) as the server and the browser module use it.
export { createAutocomplete, type Autocomplete, type AutocompleteResult } from './searcher.ts';
export { parseModels, type ParsedModels } from '../../model/directory-models.ts';
export { renderSuggestion } from '../../store/format/autocomplete-suggestion.ts';
