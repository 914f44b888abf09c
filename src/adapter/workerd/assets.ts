// The dataset of an edge isolate, read once from the ASSETS binding (Workers static assets, or a
// workerd disk service over dist/). The core reads its files synchronously, so every file it needs
// is fetched up front into memory; the isolate then answers from that copy until it is recycled.
import { AUTOCOMPLETE_INDEX_FILE } from '../../store/format/dist-paths.ts';
import { AUTOCOMPLETE_DIR, DATA_FILES } from '../../store/format/dist-paths.ts';
import { datasetFrom, type Dataset } from '../../query/dataset.ts';
import { memorySource } from '../../store/read/dist-source.ts';

/** The part of the Fetcher binding this worker uses. */
export interface AssetFetcher {
  fetch(input: string, init?: { method?: string }): Promise<Response>;
}

/** Every file under dist/ the core reads, relative to dist/. */
export const EDGE_FILES: readonly string[] = [
  'manifest.json',
  ...Object.values(DATA_FILES),
  `${AUTOCOMPLETE_DIR}/${AUTOCOMPLETE_INDEX_FILE}`,
];

/** A dataset that cannot be loaded here; `detail` is safe to show a client. */
export class EdgeLoadError extends Error {
  constructor(readonly detail: string, readonly permanent: boolean) {
    super(detail);
  }
}

const TEXT_FILES = new Set(EDGE_FILES.filter((rel) => rel.endsWith('.json')));

async function fetchAsset(assets: AssetFetcher, rel: string, method: 'GET' | 'HEAD'): Promise<Response> {
  // the host is ignored by both bindings; only the path names the file
  const response = await assets.fetch(`https://assets.invalid/${rel}`, { method });
  if (!response.ok) {
    await response.body?.cancel();
    // not permanent: a deploy may still be under way
    throw new EdgeLoadError(`The API data is not deployed (${rel}: HTTP ${response.status}); deploy dist/ built with \`aula build --edge\`.`, false);
  }
  return response;
}

async function fetchFile(assets: AssetFetcher, rel: string): Promise<string | Uint8Array> {
  const response = await fetchAsset(assets, rel, 'GET');
  return TEXT_FILES.has(rel) ? response.text() : new Uint8Array(await response.arrayBuffer());
}

export interface EdgeLoadOptions {
  /** bytes of data files above which the isolate does not try to load them (it would exceed its memory) */
  maxDataBytes: number;
  /** overrides the base URL the dist was built with */
  baseUrl?: string;
}

/**
 * Loads the data files into a dataset. Refuses, before reading the data, a dist whose data files
 * are larger than `maxDataBytes`: past that an isolate runs out of memory, which kills it with
 * no answer at all; a refusal answers 503 with the reason instead.
 */
export async function loadEdgeDataset(assets: AssetFetcher, options: EdgeLoadOptions): Promise<Dataset> {
  const sizes = await Promise.all(
    EDGE_FILES.map(async (rel) => {
      const head = await fetchAsset(assets, rel, 'HEAD');
      await head.body?.cancel();
      return Number(head.headers.get('Content-Length') ?? 0);
    }),
  );
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total > options.maxDataBytes) {
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    throw new EdgeLoadError(
      `The API data (${mb(total)}) is larger than an edge isolate can hold (${mb(options.maxDataBytes)} of data files); serve it with \`aula serve\` instead.`,
      true,
    );
  }
  const files = new Map<string, string | Uint8Array>();
  for (const rel of EDGE_FILES) files.set(rel, await fetchFile(assets, rel));
  try {
    const ds = datasetFrom(memorySource(files, 'dist'), { baseUrl: options.baseUrl });
    // read the deferred part now: a corrupt dist shows at load, not in some later request
    void ds.events.table.columns.text;
    return ds;
  } catch (e) {
    throw new EdgeLoadError(`The API data cannot be read (${(e as Error).message}).`, true);
  }
}
