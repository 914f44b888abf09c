// The static hosts' routing rules written into dist/: Netlify and Vercel read theirs from the
// published folder; the nginx snippets are for an include (or `aula nginx` prints them).
import { FILTER_PARAMETERS } from '../api/events/catalog.ts';
import { SHAPE_PARAMS } from '../api/events/shape.ts';
import { netlifyRedirects, nginxConfig, vercelConfig } from '../deploy/routing.ts';
import type { Manifest } from '../store/manifest.ts';
import type { DistFiles } from '../store/data-files.ts';

/** Every parameter the server reads besides limit and offset: a static page cannot answer those. */
export const KNOWN_PARAMETERS: readonly string[] = [...FILTER_PARAMETERS.map((p) => p.name), ...SHAPE_PARAMS, 'format'];

export function nginxSnippets(manifest: Manifest, upstream: string, root: string): string {
  const { http, server } = nginxConfig(manifest, { upstream, root });
  return `# --- in the http {} context ---\n${http}\n# --- in a server {} block ---\n${server}`;
}

export function routingFiles(manifest: Manifest, upstream: string, root: string): DistFiles {
  return new Map([
    ['_redirects', netlifyRedirects(manifest, upstream)],
    ['vercel.json', vercelConfig(manifest, upstream, KNOWN_PARAMETERS)],
    ['deploy/nginx.conf', nginxSnippets(manifest, upstream, root)],
  ]);
}
