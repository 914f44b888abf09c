// A dist/ published on an HTTP origin (a CDN, an object store, a plain web server): the manifest
// and the files the server loads, downloaded into memory and handed to the loader as a source
// that is verified against the manifest's sizes and SHA-256 sums — so a file from another build,
// a truncated upload or a half-published build is refused by name before any of it is served.
// The manifest is fetched conditionally (ETag / Last-Modified), so polling an unchanged origin
// costs one 304; so is a file a refused build had wrong, while the origin's ETag for it stands.
import { loadedFiles } from '../format/dist-paths.ts';
import { memorySource, type DistSource } from './dist-source.ts';
import { createHash } from 'node:crypto';
import { DistError, parseManifest } from '../format/manifest.ts';
import { checkDigest } from './verified-source.ts';


export interface RemoteLimits {
  /** a manifest larger than this is refused (default 4 MiB) */
  maxManifestBytes: number;
  /** the data files together, as the manifest lists them (default 2 GiB) */
  maxTotalBytes: number;
  /** each request, headers and body (default 10 s for the manifest) … */
  manifestTimeoutMs: number;
  /** … and for each data file (default 120 s) */
  fileTimeoutMs: number;
}

export const DEFAULT_REMOTE_LIMITS: RemoteLimits = {
  maxManifestBytes: 4 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  manifestTimeoutMs: 10_000,
  fileTimeoutMs: 120_000,
};

/** What the last manifest answer said about its version, for the next conditional GET. */
export interface Validators {
  etag?: string;
  lastModified?: string;
  /** the manifest's bytes: an origin that sends no validators is still recognized as unchanged */
  text: string;
}

export interface RemoteDist {
  /** every file already checked against the manifest */
  source: DistSource;
  validators: Validators;
  /** the verified files by SHA-256, to pass as `verified` to the next fetch */
  verified: VerifiedFiles;
}

/** Files already downloaded and checked, by SHA-256: a later build listing the same sum reuses them. */
export type VerifiedFiles = ReadonlyMap<string, Uint8Array>;

/**
 * Files a refused build had wrong, by path, listed sum and size: the origin's strong ETag for the
 * bytes it sent, when they were downloaded, and why they were refused. Asked for again with
 * If-None-Match, a file the origin still has as it was costs a 304, not its download (a cut
 * upload of a ~50 MB event part was downloaded again on every poll until it was fixed).
 *
 * Only a strong ETag, and only for REFUSED_ETAG_TRUST_MS after the download: a weak ETag or a
 * Last-Modified (one-second grain) may not change when a file is fixed within the second, and
 * nginx's strong ETag is made of the mtime in seconds and the size alone, so a fix of the same
 * size published with its mtime kept (rsync -a, cp -p, tar) keeps it too. Past that time the file
 * is downloaded again whatever the origin says of it.
 */
export type RefusedFiles = ReadonlyMap<string, RefusedFile>;

/** One of RefusedFiles: the origin's ETag for the bytes refused, when they were downloaded, and why. */
export interface RefusedFile {
  etag: string;
  problem: DistError;
  downloadedAt: number;
}

/** How long a refused file's ETag is taken to mean its bytes have not changed (RefusedFiles). */
export const REFUSED_ETAG_TRUST_MS = 5 * 60_000;

const refusedKey = (rel: string, listed: { sha256: string; bytes: number }) => `${rel}\0${listed.sha256}\0${listed.bytes}`;

/** `https://host/path` → `https://host/path/`, so relative names resolve below it. */
export function remoteBase(url: string): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new DistError(`${url}: not a valid URL`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new DistError(`${url}: a remote dist must be an http(s) URL`);
  // fetch refuses a URL holding credentials, and the password would be printed in every message
  if (base.username !== '' || base.password !== '') {
    throw new DistError(`${base.protocol}//${base.host}${base.pathname}: a remote dist URL may not hold a user name or password`);
  }
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return base;
}

export function isRemoteDist(dist: string): boolean {
  return /^https?:\/\//i.test(dist);
}

/** `ftp://…`, `s3://…`: meant as a URL, yet not one a remote dist can be (not a folder either). */
export function isOtherUrl(dist: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dist) && !isRemoteDist(dist);
}

/** A body as read: its bytes and, when asked for, their SHA-256 taken chunk by chunk as they came. */
interface Body {
  bytes: Uint8Array;
  sha256?: string;
}

/**
 * The body, refused once it passes `max` bytes (the origin's Content-Length is not trusted).
 * Read into one buffer of at most `max` bytes, not into chunks joined at the end (which held
 * twice a file's size), and hashed as it arrives when `hash` is given, so no single turn of the
 * event loop hashes a whole data file.
 */
async function readCapped(response: Response, max: number, where: string, hash?: () => Hasher): Promise<Body> {
  // the declared length is the encoded one: only a body sent as it is can be judged by it
  const encoding = response.headers.get('content-encoding');
  const declared = encoding === null || encoding === 'identity' ? Number(response.headers.get('content-length') ?? NaN) : NaN;
  if (declared > max) {
    await response.body?.cancel();
    throw new DistError(`${where}: the origin sends ${declared} bytes, more than the ${max} expected`);
  }
  // the size expected: a data file's is the listed one (max less the byte that proves it wrong)
  let bytes = Buffer.allocUnsafe(Number.isSafeInteger(declared) && declared >= 0 ? declared : max);
  let total = 0;
  const hasher = hash?.();
  try {
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (total + chunk.byteLength > max) throw new DistError(`${where}: the origin sends more than the ${max} bytes expected`);
        if (total + chunk.byteLength > bytes.byteLength) {
          // (a Content-Length below what is sent: room for all that may come, once)
          const grown = Buffer.allocUnsafe(max);
          bytes.copy(grown, 0, 0, total);
          bytes = grown;
        }
        bytes.set(chunk, total);
        total += chunk.byteLength;
        hasher?.update(chunk);
      }
    }
  } catch (e) {
    if (e instanceof DistError) throw e;
    // the timeout's abort or a reset connection, mid-body: the origin failed, not the build
    throw new OriginUnavailable(`${where}: the download broke off after ${total} bytes (${(e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message})`);
  }
  return { bytes: bytes.subarray(0, total), sha256: hasher?.digest() };
}

/** An incremental SHA-256 (hex). */
interface Hasher {
  update(chunk: Uint8Array): void;
  digest(): string;
}

const sha256Hasher = (): Hasher => {
  const hash = createHash('sha256');
  return { update: (chunk) => void hash.update(chunk), digest: () => hash.digest('hex') };
};

/** HTTP answers that say the origin cannot serve now (it may later), not that the dist is wrong. */
const UNAVAILABLE = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * The origin did not answer (down, timing out, a 5xx, 408 or 429, a download cut off midway):
 * that says nothing about the build, so a server keeps what it has and stays ready.
 */
export class OriginUnavailable extends DistError {
  override name = 'OriginUnavailable';
}

/**
 * A build that cannot be loaded yet, the files of it that were right (no need to fetch them
 * again), and those that were wrong (asked for conditionally next time).
 */
export class RefusedBuild extends DistError {
  override name = 'RefusedBuild';
  constructor(
    message: string,
    readonly verified: VerifiedFiles,
    readonly refused: RefusedFiles = new Map(),
  ) {
    super(message);
  }
}

/** How many redirects one request follows at most. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A URL for a message: without a user name or password, and cut short when long (the origin chose it). */
function shownUrl(url: URL): string {
  const text = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Where a redirect from `from` (a URL below `base`) to `location` leads, or why it is not
 * followed. A remote dist is read from below its URL only: a redirect elsewhere — another
 * host, port or scheme (so never from https to http), a path outside the dist's, a path with an
 * encoded / or \ that a server may decode into one outside it — would make the replica a way to
 * send GET requests to any host it can reach (an internal one, through an open redirect on a
 * CDN), so it is refused, not followed.
 */
export function redirectTarget(base: URL, from: URL, location: string): URL | string {
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    const raw = JSON.stringify(location.length > 200 ? `${location.slice(0, 200)}…` : location);
    return `refused a redirect to ${raw}, which is not a URL`;
  }
  const refused = (why: string) => `refused a redirect to ${shownUrl(to)} (${why}); a remote dist is read only from below ${base.href}`;
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return refused(`another scheme, ${to.protocol.slice(0, -1)}`);
  if (from.protocol === 'https:' && to.protocol === 'http:') return refused('from https to http');
  if (to.origin !== base.origin) return refused('another origin');
  if (to.username !== '' || to.password !== '') return refused('a user name or password in the URL');
  if (!to.pathname.startsWith(base.pathname)) return refused('outside the path of the dist');
  if (/%2f|%5c/i.test(to.pathname.slice(base.pathname.length))) return refused('an encoded / or \\ in the path');
  return to;
}

/**
 * GET `url` (below `base`), following the origin's redirects only while they stay below `base`
 * (redirectTarget), at most MAX_REDIRECTS, a loop refused when it comes round; `timeoutMs`
 * bounds all of it. A failure to connect or a timeout throws `Failure`; a refused redirect is a
 * DistError: the dist is not where its URL says, which the origin's operator must fix.
 */
async function get(base: URL, url: URL, timeoutMs: number, headers: Record<string, string> = {}, Failure = DistError): Promise<Response> {
  const signal = AbortSignal.timeout(timeoutMs);
  const asked = new Set([url.href]);
  for (let at = url; ; ) {
    let response: Response;
    try {
      // no-cache: a CDN or proxy between here and the origin must revalidate, not answer from its copy
      response = await fetch(at, { headers: { 'Cache-Control': 'no-cache', ...headers }, signal, redirect: 'manual' });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? (e as Error).message);
      throw new Failure(`${at === url ? url.href : `${url.href} (redirected to ${shownUrl(at)})`}: cannot be fetched (${why})`);
    }
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel();
    const next = redirectTarget(base, at, location);
    if (typeof next === 'string') throw new DistError(`${url.href}: ${next}`);
    if (asked.has(next.href)) throw new DistError(`${url.href}: refused a redirect to ${shownUrl(next)} (a loop: it was asked for already)`);
    if (asked.size > MAX_REDIRECTS) throw new DistError(`${url.href}: refused a redirect to ${shownUrl(next)} (more than ${MAX_REDIRECTS} redirects)`);
    asked.add(next.href);
    at = next;
  }
}

/**
 * Fetches the dist at `base` unless its manifest is still the one `known` describes (then
 * 'unchanged'). Each file is checked against the manifest's size and SHA-256 as it arrives; a
 * file whose sum is among `verified` (the current build's, or those a refused attempt got right)
 * is not downloaded again, so a new build costs only the files that changed; nor is a file
 * `refused` had wrong while the origin answers 304 for it. Throws DistError naming the URL when a
 * file cannot be fetched or is not the one the manifest lists (RefusedBuild: the build's).
 */
export async function fetchRemoteDist(
  base: URL,
  known?: Validators,
  limits: RemoteLimits = DEFAULT_REMOTE_LIMITS,
  verified: VerifiedFiles = new Map(),
  refused: RefusedFiles = new Map(),
): Promise<RemoteDist | 'unchanged'> {
  const manifestUrl = new URL('manifest.json', base);
  const conditional: Record<string, string> = {};
  if (known?.etag) conditional['If-None-Match'] = known.etag;
  else if (known?.lastModified) conditional['If-Modified-Since'] = known.lastModified;
  const response = await get(base, manifestUrl, limits.manifestTimeoutMs, conditional, OriginUnavailable);
  if (response.status === 304 && known) {
    await response.body?.cancel();
    return 'unchanged';
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    const Failure = UNAVAILABLE(response.status) ? OriginUnavailable : DistError;
    throw new Failure(`${manifestUrl.href}: the origin answers HTTP ${response.status}`);
  }
  const text = Buffer.from((await readCapped(response, limits.maxManifestBytes, manifestUrl.href)).bytes).toString('utf8');
  if (known && text === known.text) return 'unchanged';
  const validators: Validators = {
    etag: response.headers.get('etag') ?? undefined,
    lastModified: response.headers.get('last-modified') ?? undefined,
    text,
  };
  const manifest = parseManifest(text, manifestUrl.href);
  const loaded = loadedFiles(manifest);
  let total = 0;
  for (const rel of loaded) {
    if (!Object.hasOwn(manifest.files, rel)) throw new DistError(`${new URL(rel, base).href}: is not listed in manifest.json; rebuild with \`aula build\``);
    total += manifest.files[rel].bytes;
  }
  if (total > limits.maxTotalBytes) {
    throw new DistError(`${manifestUrl.href}: lists ${total} bytes of data files, more than the ${limits.maxTotalBytes} this server loads`);
  }
  const files = new Map<string, string | Uint8Array>([['manifest.json', text]]);
  const label = base.href.replace(/\/$/, '');
  const named = memorySource(files, label);
  const good = new Map<string, Uint8Array>();
  /** files that arrived whole but are not the ones listed (a half-published build): the rest are still fetched */
  const wrong: DistError[] = [];
  const stillWrong = new Map<string, RefusedFile>();
  // one after another: the event parts are most of the total, and parallel downloads would only
  // raise the peak of memory held by half-read bodies
  try {
    for (const rel of loaded) {
      const listed = manifest.files[rel];
      const reused = verified.get(listed.sha256);
      if (reused && reused.byteLength === listed.bytes) {
        files.set(rel, reused);
        good.set(listed.sha256, reused);
        continue;
      }
      const url = new URL(rel, base);
      const key = refusedKey(rel, listed);
      const known = refused.get(key);
      const before = known && Date.now() - known.downloadedAt < REFUSED_ETAG_TRUST_MS ? known : undefined;
      const answer = await get(base, url, limits.fileTimeoutMs, before ? { 'If-None-Match': before.etag } : {}, OriginUnavailable);
      if (answer.status === 304 && before) {
        await answer.body?.cancel();
        wrong.push(before.problem);
        stillWrong.set(key, before);
        continue;
      }
      if (answer.status !== 200) {
        await answer.body?.cancel();
        const Failure = UNAVAILABLE(answer.status) ? OriginUnavailable : DistError;
        throw new Failure(`${url.href}: the origin answers HTTP ${answer.status}`);
      }
      // one byte past the listed size is enough to know the file is not the one listed
      const { bytes, sha256 } = await readCapped(answer, listed.bytes + 1, url.href, sha256Hasher);
      try {
        checkDigest(named, manifest, rel, bytes, () => sha256!);
      } catch (e) {
        wrong.push(e as DistError);
        const etag = answer.headers.get('etag');
        if (etag?.startsWith('"')) stillWrong.set(key, { etag, problem: e as DistError, downloadedAt: Date.now() });
        continue;
      }
      files.set(rel, bytes);
      good.set(listed.sha256, bytes);
    }
    if (wrong.length > 0) throw wrong[0];
  } catch (e) {
    // the origin failing midway says nothing of the build: no refusal (the server stays ready)
    if (!(e instanceof DistError) || e instanceof OriginUnavailable) throw e;
    const problems = wrong.includes(e) ? wrong : [...wrong, e];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more file${problems.length > 2 ? 's' : ''})` : '';
    throw new RefusedBuild(`${problems[0].message}${more}`, good, stillWrong);
  }
  // every file was checked above: the loader need not hash them again
  return { source: named, validators, verified: good };
}
