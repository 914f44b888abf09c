// The dataset of an edge isolate, read once from the ASSETS binding (Workers static assets, or a
// workerd disk service over dist/). The core reads its files synchronously, so every file it needs
// is fetched up front into memory; the isolate then answers from that copy until it is recycled.
// The files are verified against the manifest's SHA-256 sums by the loader the server uses; only
// the hashing differs (WebCrypto here, as the bundle has no node: modules).
import { loadedFiles } from '../../store/format/dist-paths.ts';
import { DistError, parseManifest } from '../../store/format/manifest.ts';
import { datasetFrom, type Dataset } from '../../query/dataset.ts';
import { memorySource } from '../../store/read/dist-source.ts';
import { ChecksumMismatch, type Sha256 } from '../../store/read/verified-source.ts';

/** The part of the Fetcher binding this worker uses. */
export interface AssetFetcher {
  fetch(input: string, init?: { method?: string }): Promise<Response>;
}


/** A dataset that cannot be loaded here; `detail` is safe to show a client. */
export class EdgeLoadError extends Error {
  constructor(readonly detail: string, readonly permanent: boolean) {
    super(detail);
  }
}

async function fetchFile(assets: AssetFetcher, rel: string): Promise<Uint8Array> {
  // the host is ignored by both bindings; only the path names the file
  const response = await assets.fetch(`https://assets.invalid/${rel}`, { method: 'GET' });
  if (!response.ok) {
    await response.body?.cancel();
    // not permanent: a deploy may still be under way
    throw new EdgeLoadError(`The API data is not deployed (${rel}: HTTP ${response.status}); deploy dist/ built with \`aula build --edge\`.`, false);
  }
  return new Uint8Array(await response.arrayBuffer());
}

const hex = (digest: ArrayBuffer) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The loader hashes synchronously and WebCrypto only asynchronously, so every fetched file is
 * hashed ahead; the loader's hash function then answers for those very byte arrays.
 */
async function precomputedSha256(files: Iterable<Uint8Array>): Promise<Sha256> {
  const digests = new WeakMap<Uint8Array, string>();
  for (const bytes of files) digests.set(bytes, hex(await crypto.subtle.digest('SHA-256', bytes)));
  return (bytes) => {
    const digest = digests.get(bytes);
    if (digest === undefined) throw new Error('no SHA-256 was computed for these bytes');
    return digest;
  };
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
  const manifestBytes = await fetchFile(assets, 'manifest.json');
  let listed: Record<string, { bytes: number }>;
  let loaded: string[];
  try {
    const manifest = parseManifest(new TextDecoder().decode(manifestBytes), 'manifest.json');
    listed = manifest.files;
    loaded = loadedFiles(manifest);
  } catch (e) {
    // a manifest from another aula or a damaged one: redeploying the same files will not help
    throw new EdgeLoadError(`The API data cannot be read (${(e as Error).message}).`, e instanceof DistError);
  }
  // the manifest lists every loaded file's size, so the sizes need no request of their own
  let total = 0;
  for (const rel of loaded) total += listed[rel]?.bytes ?? 0;
  if (total > options.maxDataBytes) {
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    throw new EdgeLoadError(
      `The API data (${mb(total)}) is larger than an edge isolate can hold (${mb(options.maxDataBytes)} of data files); serve it with \`aula serve\` instead.`,
      true,
    );
  }
  const files = new Map<string, Uint8Array>([['manifest.json', manifestBytes]]);
  for (const rel of loaded) files.set(rel, await fetchFile(assets, rel));
  const sha256 = await precomputedSha256([...files].filter(([rel]) => rel !== 'manifest.json').map(([, bytes]) => bytes));
  try {
    return datasetFrom(memorySource(files, 'dist', false), { baseUrl: options.baseUrl, sha256 });
  } catch (e) {
    // a file that does not match the manifest may be a deploy under way: retried, as a missing one is
    throw new EdgeLoadError(`The API data cannot be read (${(e as Error).message}).`, !(e instanceof ChecksumMismatch));
  }
}
