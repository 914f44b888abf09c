// The live data of a server whose dist/ is on an HTTP origin: loaded at start, then the
// manifest is polled (a conditional GET) and a new build is downloaded, verified and swapped in
// whole — requests in flight finish on the old one. A build that cannot be loaded (a file
// missing, truncated or from another build: a half-published upload) keeps the old data
// answering and readiness false, as a local reload does, and is tried again on every poll until
// it is whole.
import { createApi, type Api, type ApiOptions } from '../api/core.ts';
import { datasetFrom, type Dataset } from '../query/dataset.ts';
import { decodeTextsSoon } from './decode-texts.ts';
import { fetchRemoteDist, OriginUnavailable, RefusedBuild, remoteBase, DEFAULT_REMOTE_LIMITS, type RefusedFiles, type RemoteLimits, type Validators, type VerifiedFiles } from '../store/read/remote-source.ts';
import type { LiveData } from './live-data.ts';

export interface RemoteDataOptions extends ApiOptions {
  /** the origin's URL of dist/ */
  dist: string;
  baseUrl?: string;
  /** how often the manifest is asked for (default 30 s) */
  pollMs?: number;
  limits?: Partial<RemoteLimits>;
  log(line: string): void;
}

export const DEFAULT_POLL_MS = 30_000;

interface Current {
  dataset: Dataset;
  api: Api;
  /** stops decoding the dataset's column texts (decode-texts.ts) */
  stopDecoding(): void;
}

/** Loads the remote dist (throws DistError when it cannot be served) and follows it. */
export async function remoteData(options: RemoteDataOptions): Promise<LiveData> {
  const base = remoteBase(options.dist);
  const limits = { ...DEFAULT_REMOTE_LIMITS, ...options.limits };
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;

  /** the current build's files, and those a refused attempt got right: not downloaded again */
  let verified: VerifiedFiles = new Map();
  let partial: VerifiedFiles = new Map();
  /** those it got wrong: asked for conditionally */
  let refused: RefusedFiles = new Map();

  /** Downloads and loads a build; null when the origin still has the one in `known`. */
  const load = async (known?: Validators): Promise<{ current: Current; validators: Validators; verified: VerifiedFiles } | null> => {
    let fetched;
    try {
      fetched = await fetchRemoteDist(base, known, limits, new Map([...verified, ...partial]), refused);
    } catch (e) {
      if (e instanceof RefusedBuild) ({ verified: partial, refused } = e);
      throw e;
    }
    if (fetched === 'unchanged') return null;
    // every file is read and checked here: a bad build fails before the swap
    const dataset = datasetFrom(fetched.source, { baseUrl: options.baseUrl });
    const current = { dataset, api: createApi(dataset, { ...options, pooledCache: true }), stopDecoding: decodeTextsSoon(dataset, options.log) };
    return { current, validators: fetched.validators, verified: fetched.verified };
  };

  const first = (await load())!;
  let current = first.current;
  let validators = first.validators;
  verified = first.verified;
  let ready = true;
  let lastProblem = '';
  /** what keeps readiness false: the last problem that was the build's, not the origin's */
  let notReady = '';
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  const check = async () => {
    try {
      // after a refused build ask unconditionally: a fixed data file leaves the manifest as it was
      const next = await load(ready ? validators : undefined);
      if (next) {
        current.stopDecoding();
        current = next.current;
        validators = next.validators;
        verified = next.verified;
        partial = new Map();
        refused = new Map();
        options.log(`loaded build ${current.dataset.manifest.build_id ?? `of ${current.dataset.manifest.built_at}`} from ${base.href}`);
      }
      ready = true;
      lastProblem = '';
    } catch (e) {
      const problem = (e as Error).message;
      // an origin that cannot be reached says nothing about the build: the replica keeps its data
      // and stays ready, or one origin outage would take every replica out of its load balancer
      const unreachable = e instanceof OriginUnavailable;
      if (!unreachable) {
        ready = false;
        notReady = problem;
      }
      if (problem !== lastProblem) {
        options.log(unreachable ? `kept serving the previous data: ${problem}` : `kept serving the previous data: ${problem} (retrying on every poll until the build is complete)`);
      }
      lastProblem = problem;
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void poll(), pollMs);
    timer.unref();
  };
  const poll = () => {
    clearTimeout(timer);
    running ??= check().finally(() => {
      running = null;
      schedule();
    });
    return running;
  };
  schedule();

  return {
    get api() {
      return current.api;
    },
    get dataset() {
      return current.dataset;
    },
    get files(): never {
      throw new Error('a remote dist has no public files here: the CDN serves them');
    },
    get ready() {
      return ready;
    },
    get problem() {
      return ready ? undefined : notReady;
    },
    /** checks the origin now (SIGHUP); true when the current build is whole after it */
    async reload() {
      await poll();
      return ready;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      current.stopDecoding();
    },
  };
}
