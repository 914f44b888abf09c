// What the path of a base URL may hold. The build writes host routing rules from it (_redirects,
// vercel.json, nginx: deploy/static-pages.ts), whose languages each treat other characters
// specially (quoting, `*`, `:`, `(`, percent-encoding); those never occur in practice, so they are
// refused where the URL is given (site.yaml, --base-url) rather than escaped per target — before,
// such a URL passed `aula check` and failed the build at its end as an "unexpected error".

const PLAIN = /^[A-Za-z0-9._~/-]*$/;

/** The characters allowed, as a message says them. */
export const PLAIN_BASE_PATH = 'letters, digits and . _ ~ / -';

/** The base URL's path decoded, without trailing slashes; null when it holds anything else (or a bad %-escape). */
export function plainBasePath(url: URL): string | null {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname).replace(/\/+$/, '');
  } catch {
    return null;
  }
  return PLAIN.test(path) ? path : null;
}

/**
 * Whether `url` is an origin alone (scheme://host[:port]), as the upstream of the host rules must
 * be: they pass the request's path on unchanged, so a path of the upstream's own would be lost.
 */
export function isOriginOnly(url: URL): boolean {
  return url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
}
