// The loaded dist, ready to query: the stored data (src/store/read) plus the searchers over it.
// Everything that answers requests (the API core, the server, the build's static pages) takes a
// Dataset.
import { autocompleteOf, type Autocomplete } from './autocomplete/searcher.ts';
import { AUTOCOMPLETE_DATA_FILE } from '../store/format/dist-paths.ts';
import { crc32Hex, sha256Hex } from '../store/format/manifest.ts';
import { FormatError } from '../store/format/sections.ts';
import { readAutocompleteFile } from '../store/read/autocomplete-file.ts';
import { corrupt, directorySource, sectionedBytes, type DistSource } from '../store/read/dist-source.ts';
import { readStore, type StoreOptions, type StoredData } from '../store/read/stored-data.ts';
import { verifiedSource } from '../store/read/verified-source.ts';
import { once } from '../store/read/per-need.ts';
import { readSearchIndex } from '../store/read/search-index.ts';
import { WordIndex } from './events/search/word-index.ts';

export interface Dataset extends StoredData {
  autocomplete: Autocomplete;
  /** what `search` on the event list answers from */
  search: WordIndex;
}

/** `lazy` (StoreOptions): the directory's index and the search index too are read when an answer first reads them. */
export type DatasetOptions = StoreOptions;

/**
 * Loads a dist/ folder; `baseUrl` overrides the one it was built with. Throws DistError when the
 * dist is incomplete or corrupt. With `verifyRows` the event rows are checked by it, and the
 * caller must await that check before serving.
 */
export function loadDataset(dir: string, options: Pick<StoreOptions, 'baseUrl' | 'verifyRows'> = {}): Dataset {
  return datasetFrom(directorySource(dir), { ...options, sha256: sha256Hex, crc32: crc32Hex });
}

export function datasetFrom(source: DistSource, options: DatasetOptions = {}): Dataset {
  const stored = readStore(source, options);
  // the index is checked against the manifest like the data files readStore read
  const checked = source.trusted ? source : verifiedSource(source, stored.manifest, options.sha256!, options.crc32);
  const readAutocomplete = () => {
    try {
      // read per need, a part read by an answer that is damaged names the file as damage found now
      const fault = source.perNeed ? (problem: string) => corrupt(source, AUTOCOMPLETE_DATA_FILE, problem) : undefined;
      return autocompleteOf(readAutocompleteFile(sectionedBytes(checked, AUTOCOMPLETE_DATA_FILE), fault));
    } catch (e) {
      if (e instanceof FormatError) throw corrupt(source, AUTOCOMPLETE_DATA_FILE, e.message);
      throw e;
    }
  };
  // a source loading per need, or a lazy dataset, reads the directory's and the search index when first searched
  if (source.perNeed || options.lazy) {
    const autocomplete = once(readAutocomplete);
    return Object.defineProperty({ ...stored, search: searchOf(checked, stored, true) }, 'autocomplete', { get: autocomplete, enumerable: true }) as Dataset;
  }
  try {
    return { ...stored, autocomplete: readAutocomplete(), search: searchOf(checked, stored) };
  } catch (e) {
    // (the files readStore opened are not served: closed, as a failed reload must not keep them)
    stored.close();
    throw e;
  }
}

/** The search index of the stored data, read (and checked, like the data files) through `source`: now, or when first searched. */
export function searchOf(source: DistSource, stored: StoredData, lazy = false): WordIndex {
  const read = () => readSearchIndex(source, stored.events.rows.length);
  return new WordIndex(lazy ? read : read());
}
