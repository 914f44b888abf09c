// The directory side of a build on its own thread. The autocomplete index and MiniSearch depend on
// the directory alone, so on a machine with a second core they are made while the main thread
// renders the events and answers the pages (the build awaits them only where it needs the files).
// Files kept in the build cache (directory-outputs.ts) are read here and never made again.
import { Worker } from 'node:worker_threads';
import type { DirectoryObject } from '../model/types.ts';
import type { Precompressed } from '../deploy/precompress.ts';
import { AUTOCOMPLETE_DIR } from '../store/format/dist-paths.ts';
import { readStored, type DirectoryFiles } from './directory-outputs.ts';
import { makeDirectoryFiles, type DirectoryMade, type DirectoryRequest } from './directory-make.ts';

export interface DirectoryJobOptions {
  minisearch: boolean;
  /** compress the large files on the worker too */
  compress: boolean;
  /** where each index is kept in the build cache (null: no cache) */
  kept: (index: 'autocomplete' | 'minisearch') => string | null;
  /** the directory's key in the build cache (null: no cache) */
  key: Buffer | null;
  /** make the files on this thread (default: a worker, when running compiled) */
  inThread?: boolean;
}

export interface DirectoryJob {
  /** autocomplete/'s own index and module, by name under dist/autocomplete/ */
  autocomplete: Promise<DirectoryFiles>;
  /** minisearch.json and its options module; an empty record when not asked for */
  minisearch: Promise<DirectoryFiles>;
  /** the compressed twins made on the way, by path under dist/ (for compressionPool's `ready`) */
  compressed: Promise<Map<string, Precompressed>>;
  /** stops the worker (a build that failed elsewhere) */
  cancel(): void;
}

// A source checkout (tsx, vitest) has no loader for a .ts worker: there the job runs in-thread.
const COMPILED = !import.meta.url.endsWith('.ts');

export function startDirectoryJob(objects: readonly DirectoryObject[], options: DirectoryJobOptions): DirectoryJob {
  const paths = { autocomplete: options.kept('autocomplete'), minisearch: options.minisearch ? options.kept('minisearch') : null };
  const stored = (path: string | null) => (path !== null && options.key !== null ? readStored(path, options.key) : null);
  const storedAutocomplete = stored(paths.autocomplete);
  const storedMiniSearch = options.minisearch ? stored(paths.minisearch) : {};
  const request: DirectoryRequest = {
    autocomplete: storedAutocomplete === null,
    minisearch: storedMiniSearch === null,
    compress: options.compress,
    keep: options.key === null ? null : { key: options.key, ...paths },
  };
  let cancel = () => {};
  let made: Promise<DirectoryMade>;
  if (!request.autocomplete && !request.minisearch) {
    made = Promise.resolve({ autocomplete: null, minisearch: null, compressed: {} });
  } else if (options.inThread ?? !COMPILED) {
    made = makeDirectoryFiles(objects, request);
  } else {
    const worker = new Worker(new URL('./directory-worker.js', import.meta.url), { workerData: { objects, request } });
    cancel = () => void worker.terminate();
    made = new Promise<DirectoryMade>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the directory worker stopped (exit code ${code}) before it answered`)));
    });
  }
  // a build that fails before it awaits the job must not leave an unhandled rejection behind
  made.catch(() => {});
  const autocomplete = made.then((m) => storedAutocomplete ?? m.autocomplete!);
  const minisearch = made.then((m) => storedMiniSearch ?? m.minisearch!);
  const compressed = made.then((m) => new Map(Object.entries(m.compressed).map(([name, c]) => [`${AUTOCOMPLETE_DIR}/${name}`, c])));
  for (const p of [autocomplete, minisearch, compressed]) p.catch(() => {});
  return { autocomplete, minisearch, compressed, cancel };
}
