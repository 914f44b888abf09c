// The loaded dist, ready to query: the stored data (src/store/read) plus the searchers over it.
// Everything that answers requests (the API core, the server, the build's static pages) takes a
// Dataset.
import { createAutocomplete, type Autocomplete } from './autocomplete/searcher.ts';
import { AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE } from '../store/format/dist-paths.ts';
import { DistError, sha256Hex } from '../store/format/manifest.ts';
import { corrupt, directorySource, type DistSource } from '../store/read/dist-source.ts';
import { readStore, type StoreOptions, type StoredData } from '../store/read/stored-data.ts';
import { verifiedSource } from '../store/read/verified-source.ts';

export interface Dataset extends StoredData {
  autocomplete: Autocomplete;
}

/**
 * Loads a dist/ folder; `baseUrl` overrides the one it was built with. Throws DistError when the
 * dist is incomplete or corrupt. With `verifyRows` the event rows are checked by it, and the
 * caller must await that check before serving.
 */
export function loadDataset(dir: string, options: Pick<StoreOptions, 'baseUrl' | 'verifyRows'> = {}): Dataset {
  return datasetFrom(directorySource(dir), { ...options, sha256: sha256Hex });
}

export function datasetFrom(source: DistSource, options: StoreOptions = {}): Dataset {
  const stored = readStore(source, options);
  const indexFile = `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`;
  // the index is checked against the manifest like the data files readStore read
  const checked = source.trusted ? source : verifiedSource(source, stored.manifest, options.sha256!);
  const bytes = checked.bytes(indexFile);
  let autocomplete: Autocomplete;
  try {
    autocomplete = createAutocomplete(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    autocomplete.search('a', null).page(0, 1);
  } catch (e) {
    if (e instanceof DistError) throw e;
    throw corrupt(source, indexFile, `the index cannot be read (${(e as Error).message})`);
  }
  return { ...stored, autocomplete };
}
