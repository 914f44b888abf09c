// What the path of a base URL may hold. The build writes host routing rules from it (_redirects,
// vercel.json, nginx: deploy/static-pages.ts), whose languages each treat other characters
// specially (quoting, `*`, `:`, `(`, percent-encoding); those never occur in practice, so they are
// refused where the URL is given (site.yaml, --base-url) rather than escaped per target — before,
// such a URL passed `aula check` and failed the build at its end as an "unexpected error".

const PLAIN = /^[A-Za-z0-9._~/-]*$/;

/** The characters allowed, as a message says them. */
const PLAIN_BASE_PATH = 'letters, digits and . _ ~ / -';

/**
 * The base URL's path without trailing slashes; null when it holds anything else. A %-escape is
 * refused as written, not decoded: links carry it escaped while nginx and the hosts match the
 * decoded path, so `/a%2F..` would name one path in the links and another in the rules.
 */
export function plainBasePath(url: URL): string | null {
  const path = url.pathname.replace(/\/+$/, '');
  return PLAIN.test(path) ? path : null;
}

/**
 * What is wrong with a base URL `text` (parsed as `url`) that the URL parser lets through and
 * normalizes away: port 0 (no server listens there), and a path with an empty segment (`//`),
 * a `.` or `..` segment (also %-escaped) or a backslash, which links would carry as written; and
 * a path with other characters than PLAIN's (a %-escape too), which the host rules cannot hold.
 * Null when nothing is. The one check of a base URL's path: site.yaml, --base-url and the build
 * say what it returns.
 */
export function basePathProblem(text: string, url: URL): string | null {
  // the URL parser drops them; the path below is read from the text as written
  if (text !== text.trim()) return 'spaces around the URL';
  if (url.port === '0') return 'port 0 cannot be reached';
  const path = text.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\\?#]*/, '').replace(/[?#][\s\S]*$/, '').replace(/\/+$/, '');
  if (path.includes('\\')) return 'a backslash in the path';
  for (const segment of path.split('/').slice(1)) {
    if (segment === '') return 'an empty path segment (//)';
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // a bad %-escape: plainBasePath refuses it
    }
    if (decoded === '.' || decoded === '..') return `a ${decoded} path segment`;
  }
  if (plainBasePath(url) === null) return `its path may hold only ${PLAIN_BASE_PATH} (the host rules the build writes cannot hold others)`;
  return null;
}

/**
 * A base URL as links carry it: scheme and host as the URL parser writes them (lower case, an
 * international name in its ASCII form, no default port), the path without trailing slashes.
 */
export function canonicalBaseUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The base URL `url` canonical (canonicalBaseUrl); throws, saying why, where it is not http(s) or basePathProblem finds a problem. */
export function normalizeBaseUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`base URL must be http or https: ${url}`);
  const problem = basePathProblem(url, parsed);
  if (problem !== null) throw new Error(`base URL ${url}: ${problem}`);
  return canonicalBaseUrl(parsed);
}

/**
 * Whether `url` is an origin alone (scheme://host[:port]), as the upstream of the host rules must
 * be: they pass the request's path on unchanged, so a path of the upstream's own would be lost.
 */
export function isOriginOnly(url: URL): boolean {
  return url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
}
