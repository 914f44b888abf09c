// The manifest, made by one code for the build and `aula dev`'s in-memory builds, so they cannot drift apart.
import type { Media, Site } from '../../model/types.ts';
import { buildIdOf, DIST_FORMAT, zoneTableText, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { MEDIA_FILES_INDEX, mediaFilesText } from '../../store/format/public-files.ts';
import { mediaFilesOf } from './media-copies.ts';
import { sortedRecord } from '../../util/stable-json.ts';
import { AULA_VERSION } from '../../version.ts';

const FIRST_PAGE = 'v1/cms/event/index.json';
const FURTHER_PAGES = 'v1/cms/event/offset/{offset}.json';

export function pageFile(offset: number): string {
  return offset === 0 ? FIRST_PAGE : FURTHER_PAGES.replace('{offset}', String(offset));
}

/**
 * `newest` (the events' newest `last_modified`, epoch ms; 0 for none), not the clock, is built_at
 * (and events.ics's DTSTAMP), so two builds of the same content are byte-identical.
 * `eventParts`: the event rows' parts, as they were cut.
 */
export function manifestOf(site: Site, baseUrl: string, newest: number, counts: Omit<Manifest['counts'], 'event_list_pages'>, eventParts: Manifest['event_parts']): Manifest {
  const limit = site.page_size;
  // a title only when given, so dists without one keep their bytes
  const settings: Manifest['site'] = { timezone: site.timezone, page_size: site.page_size, max_page_size: site.max_page_size };
  if (site.title !== null && site.title !== undefined) settings.title = site.title;
  return {
    format: DIST_FORMAT,
    version: AULA_VERSION,
    built_at: new Date(newest).toISOString(),
    base_url: baseUrl,
    site: { ...settings, offsets: zoneTableText(site.timezone) },
    counts: { ...counts, event_list_pages: Math.max(1, Math.ceil(counts.events / limit)) },
    event_parts: eventParts,
    event_list: { first: FIRST_PAGE, further: FURTHER_PAGES, limit },
    files: {},
  };
}

/** The render's last step: the manifest given its digests (path order) and build id, and put among `files` with the media index. */
export function sealManifest(manifest: Manifest, digests: Record<string, FileDigest>, files: Map<string, string | Uint8Array>, media: ReadonlyMap<number, Media>): void {
  manifest.files = sortedRecord(Object.entries(digests));
  manifest.build_id = buildIdOf(manifest);
  files.set(MEDIA_FILES_INDEX, mediaFilesText(mediaFilesOf(media)));
  files.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
}
