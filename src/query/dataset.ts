// The loaded dist, ready to query: the stored data (src/store/read) plus the searchers built over
// it at load. Everything that answers requests (the API core, the server, the build's static
// pages) takes a Dataset.
import { createAutocomplete, type Autocomplete } from './autocomplete/searcher.ts';
import { AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE } from '../store/format/dist-paths.ts';
import { DistError, sha256Hex } from '../store/format/manifest.ts';
import { corrupt, directorySource, type DistSource } from '../store/read/dist-source.ts';
import { readStore, type StoreOptions, type StoredData } from '../store/read/stored-data.ts';
import { verifiedSource } from '../store/read/verified-source.ts';

import { warmDataset as warmStored } from '../store/read/stored-data.ts';

export interface Dataset extends StoredData {
  autocomplete: Autocomplete;
}

/**
 * Loads a dist/ folder; `baseUrl` overrides the one it was built with. Throws DistError when the
 * dist is incomplete or corrupt. With `verifyRows` the event rows are checked by it, and the
 * caller must await that check before serving.
 */
export function loadDataset(dir: string, options: Pick<DatasetOptions, 'baseUrl' | 'verifyRows' | 'lazyAutocomplete'> = {}): Dataset {
  return datasetFrom(directorySource(dir), { ...options, sha256: sha256Hex });
}

export interface DatasetOptions extends StoreOptions {
  /**
   * decode the autocomplete index when first searched (or warmed, see warmDataset) instead of
   * now: ~170 ms of the server's cold start at 200k objects. Its bytes are read and checked
   * against the manifest now either way, so a damaged index is still refused at load.
   */
  lazyAutocomplete?: boolean;
}

export function datasetFrom(source: DistSource, options: DatasetOptions = {}): Dataset {
  const stored = readStore(source, options);
  const indexFile = `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`;
  // the index is checked against the manifest like the data files readStore read
  const checked = source.trusted ? source : verifiedSource(source, stored.manifest, options.sha256!);
  const bytes = checked.bytes(indexFile);
  const decode = (): Autocomplete => {
    try {
      const autocomplete = createAutocomplete(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
      autocomplete.search('a', null).page(0, 1);
      return autocomplete;
    } catch (e) {
      if (e instanceof DistError) throw e;
      throw corrupt(source, indexFile, `the index cannot be read (${(e as Error).message})`);
    }
  };
  return { ...stored, autocomplete: options.lazyAutocomplete ? lazyAutocomplete(decode) : decode() };
}

/** An autocomplete made on first use; a failure is kept and thrown again on every use. */
function lazyAutocomplete(make: () => Autocomplete): Autocomplete {
  let made: Autocomplete | undefined;
  let failed: unknown;
  // dropped once used: it holds the index's bytes (11 MB at 200k objects)
  let maker: (() => Autocomplete) | undefined = make;
  const get = () => {
    if (made) return made;
    if (failed) throw failed;
    try {
      made = maker!();
      maker = undefined;
      return made;
    } catch (e) {
      failed = e;
      maker = undefined;
      throw e;
    }
  };
  return {
    get size() {
      return get().size;
    },
    search: (q, models, options) => get().search(q, models, options),
  };
}

/** Reads and decodes what the dataset defers (the text columns, a lazy autocomplete); throws DistError when that part is corrupt. */
export function warmDataset(ds: Dataset): void {
  warmStored(ds);
  warmAutocomplete(ds);
}

/** Decodes a lazy autocomplete index now (the server: while the rows are checked, before it listens); throws DistError when it cannot be read. */
export function warmAutocomplete(ds: Dataset): void {
  void ds.autocomplete.size;
}
