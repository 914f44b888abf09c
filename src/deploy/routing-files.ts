// The static hosts' routing rules written into dist/: Netlify and Vercel read theirs from the
// published folder; the nginx snippets are for an include (or `aula nginx` prints them).
import { FILTER_PARAMETERS } from '../query/events/catalog.ts';
import { SHAPE_PARAMS } from '../api/events/shape.ts';
import { netlifyHeaders, netlifyRedirects, nginxConfig, nginxString, NGINX_ROOT_VARIABLE, vercelConfig, type PublicFiles } from './routing.ts';
import type { Manifest } from '../store/format/manifest.ts';

/** Every parameter the server reads besides limit and offset: a static page cannot answer those. */
const KNOWN_PARAMETERS: readonly string[] = [...FILTER_PARAMETERS.map((p) => p.name), ...SHAPE_PARAMS, 'format'];

/** The nginx include files in dist/: no path of the build machine, the root is the includer's. */
const NGINX_FILES = { http: 'deploy/nginx-http.conf', upstream: 'deploy/nginx-upstream.conf', server: 'deploy/nginx-server.conf' } as const;

/**
 * What `aula nginx` prints: both parts, and with `root` the line that sets the dist/ folder, so
 * the server part can be pasted as it is.
 */
export function nginxSnippets(manifest: Manifest, upstream: string, publicFiles: PublicFiles, root?: string): string {
  const nginx = nginxConfig(manifest, { upstream, publicFiles });
  const setRoot = root === undefined ? '' : `set ${NGINX_ROOT_VARIABLE} ${nginxString(root)};\n`;
  return [
    `# --- in the http {} context (${NGINX_FILES.http}) ---\n${nginx.http}`,
    `# --- in the http {} context, unless you write the upstream group yourself (${NGINX_FILES.upstream}) ---\n${nginx.upstream}`,
    `# --- in a server {} block (${NGINX_FILES.server}) ---\n${setRoot}${nginx.server}`,
  ].join('\n');
}

export function routingFiles(manifest: Manifest, upstream: string, publicFiles: PublicFiles): Map<string, string> {
  const nginx = nginxConfig(manifest, { upstream, publicFiles });
  return new Map([
    ['_redirects', netlifyRedirects(manifest, upstream, publicFiles)],
    ['_headers', netlifyHeaders(manifest, publicFiles)],
    ['vercel.json', vercelConfig(manifest, upstream, KNOWN_PARAMETERS, publicFiles)],
    [NGINX_FILES.http, nginx.http],
    [NGINX_FILES.upstream, nginx.upstream],
    [NGINX_FILES.server, nginx.server],
  ]);
}
