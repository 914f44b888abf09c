// dist/manifest.json: what a dist holds and how it was built. Written last, so its presence
// marks a complete dist.
export const DIST_FORMAT = 1;

export interface Manifest {
  format: number;
  version: string;
  built_at: string;
  base_url: string;
  site: { timezone: string; page_size: number; max_page_size: number };
  counts: { events: number; pages: number; categories: number; media: number; directory: number; event_list_pages: number };
  /** where the static pages of the default event list are, relative to dist/ */
  event_list: { first: string; further: string; limit: number };
}

export class DistError extends Error {
  override name = 'DistError';
}

export function parseManifest(text: string, where: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw new DistError(`${where}: not valid JSON (${(e as Error).message})`);
  }
  if (m?.format !== DIST_FORMAT) {
    throw new DistError(`${where}: dist format ${String(m?.format)} is not the one this aula reads (${DIST_FORMAT}); rebuild with \`aula build\``);
  }
  return m;
}
