// Defaults shared by the command line and the modules it loads on demand.

/**
 * Cache-Control of successful answers unless `serve --cache-control` says otherwise. Browsers
 * keep an answer a minute; shared caches (CDNs, nginx proxy_cache) five, answer from their copy
 * while revalidating for one more (no client waits at expiry), and keep answering it for a day
 * when the origin fails. docs/deploying.md, "Caching on a CDN", gives the reasons.
 */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400';

/** Where static-host rules send what a file cannot answer: the bundled server. */
export const DEFAULT_UPSTREAM = 'http://127.0.0.1:8000';
