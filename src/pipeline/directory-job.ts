// The directory side of a build on its own thread. The autocomplete index and MiniSearch depend on
// the directory alone, so on a machine with a second core they are made while the main thread
// renders the events and answers the pages (the build awaits them only where it needs the files).
// Files kept in the build cache (directory-outputs.ts) are read here and never made again.
//
// The worker usually finishes while the events are still being read (at 100k/200k, ~8 s before
// "render data"). What it made (~100 MB of index text, MiniSearch's index and twins at 200k
// objects) then waits in a scratch file (scratch-file.ts; its layout: directory-made-file.ts)
// rather than in a heap, and is read when the build asks for it, once the events have left the
// heap: it is not part of the build's peak. The file is unlinked as soon as it is opened, so
// however the process ends, killed mid-build included, nothing is left behind.
import { Worker } from 'node:worker_threads';
import type { DirectoryObject } from '../model/types.ts';
import type { Precompressed } from '../deploy/precompress.ts';
import { AUTOCOMPLETE_DIR } from '../store/format/dist-paths.ts';
import { readStored, type DirectoryFiles } from './directory-outputs.ts';
import { ScratchFile } from './scratch-file.ts';
import { readMade, type DirectoryMade, type MadeLayout } from './directory-made-file.ts';
import { makeDirectoryFilesHeld, type DirectoryRequest } from './directory-make.ts';

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
  // Each is read when first asked for (not when the worker ends): ask for them where they are needed.
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
  /** what was made, read when first asked for */
  let made: () => Promise<DirectoryMade>;
  if (!request.autocomplete && !request.minisearch) {
    const nothing = Promise.resolve<DirectoryMade>({ autocomplete: null, minisearch: null, compressed: {} });
    made = () => nothing;
  } else if (options.inThread ?? !COMPILED) {
    const inThread = makeDirectoryFilesHeld(objects, request);
    inThread.catch(() => {});
    made = () => inThread;
  } else {
    const scratch = ScratchFile.create('directory');
    const worker = new Worker(new URL('./directory-worker.js', import.meta.url), { workerData: { objects, request, scratch: scratch?.fd ?? null } });
    let answeredAlready = false;
    // closed only once the worker is gone: a descriptor number closed under a thread still
    // writing could be reused by the next open, and its write land there
    cancel = () => void worker.terminate().then(() => scratch?.close());
    const answered = new Promise<WorkerAnswer>((resolve, reject) => {
      worker.once('message', (answer: WorkerAnswer) => {
        answeredAlready = true;
        resolve(answer);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (!answeredAlready) scratch?.close();
        reject(new Error(`the directory worker stopped (exit code ${code}) before it answered`));
      });
    });
    // a build that fails before it asks for the files must not leave an unhandled rejection behind
    answered.catch(() => {});
    let read: Promise<DirectoryMade> | undefined;
    made = () => (read ??= answered.then((answer) => takeMade(scratch, answer)));
  }
  const compressedOf = (m: DirectoryMade) => new Map(Object.entries(m.compressed).map(([name, c]) => [`${AUTOCOMPLETE_DIR}/${name}`, c]));
  return {
    get autocomplete() {
      return made().then((m) => storedAutocomplete ?? m.autocomplete!);
    },
    get minisearch() {
      return made().then((m) => storedMiniSearch ?? m.minisearch!);
    },
    get compressed() {
      return made().then(compressedOf);
    },
    cancel,
  };
}

/** The worker's answer: where what it made is in the scratch file (directory-made-file.ts), and what it could not write there. */
export type WorkerAnswer = { layout: MadeLayout; rest: DirectoryMade };

/** What the directory worker made, read back from its scratch file, which is then closed (and gone). */
function takeMade(scratch: ScratchFile | null, answer: WorkerAnswer): DirectoryMade {
  try {
    return readMade(scratch?.fd ?? null, answer.layout, answer.rest);
  } finally {
    scratch?.close();
  }
}
