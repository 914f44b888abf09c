// Defaults shared by the command line and the modules it loads on demand.

/** Cache-Control of successful answers unless `serve --cache-control` says otherwise. */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=60';

/** Where static-host rules send what a file cannot answer: the bundled server. */
export const DEFAULT_UPSTREAM = 'http://127.0.0.1:8000';
