// Rendering of a model event into the API object of interface.md §2.1, keys in table order.
import type { Category, Event, Media, PageNode, Site } from '../model/types.ts';
import { formatInstant } from '../time/zone.ts';
import { mediaUrl, type EventField } from '../model/event-fields.ts';

export interface RenderContext {
  site: Site;
  /** origin + optional path prefix, no trailing slash */
  baseUrl: string;
  pages: ReadonlyMap<number, PageNode>;
  media: ReadonlyMap<number, Media>;
}

export interface MediaFile {
  url: string;
  original: string | null;
  mimetype: string;
  filename: string;
  size: number;
}

export function renderMedia(m: Media, baseUrl: string): MediaFile {
  return { url: mediaUrl(baseUrl, m.id), original: m.original, mimetype: m.mimetype, filename: m.filename, size: m.size };
}

/** Breadcrumb nodes from the event's own node up to the root. */
export function breadcrumb(page: number | null, pages: ReadonlyMap<number, PageNode>): PageNode[] {
  const trail: PageNode[] = [];
  const seen = new Set<number>();
  for (let uid = page; uid !== null && uid !== 0 && !seen.has(uid); ) {
    const node = pages.get(uid);
    if (!node) break;
    seen.add(uid);
    trail.push({ uid: node.uid, pid: node.pid, title: node.title, is_siteroot: node.is_siteroot, domains: node.domains, uri: node.uri });
    uid = node.pid;
  }
  return trail;
}

export function renderEvent(e: Event, ctx: RenderContext): Record<EventField, unknown> {
  const zone = ctx.site.timezone;
  const media = (id: number) => renderMedia(ctx.media.get(id)!, ctx.baseUrl);
  return {
    id: e.id,
    url: e.url,
    media: e.media.map(media),
    gallery: e.gallery,
    contact_box: e.contact_box,
    breadcrumb: breadcrumb(e.page, ctx.pages),
    categories: e.categories,
    groups: e.groups,
    link: e.link,
    header_image: e.header_image === null ? null : media(e.header_image),
    related_links: e.related_links,
    related_media: e.related_media.map((r) => ({
      id: r.id,
      media: media(r.media),
      datetime: formatInstant(r.datetime, zone),
      title: r.title,
      description: r.description,
    })),
    start: formatInstant(e.start, zone),
    end: formatInstant(e.end, zone),
    allday: e.allday,
    title: e.title,
    organizer: e.organizer,
    location: e.location,
    teaser: e.teaser,
    body: e.body,
    keywords: e.keywords,
    description: e.description,
    register: e.register,
    registration_end: e.registration_end === null ? null : formatInstant(e.registration_end, zone),
    attending_fees: e.attending_fees,
    attending_fees_info: e.attending_fees_info,
    dfp_points: e.dfp_points,
    contact: e.contact,
    email: e.email,
    last_modified: formatInstant(e.last_modified, zone),
    language: e.language,
  };
}

/** The list order: start descending, then end descending, then id ascending. */
export function compareListOrder(a: Pick<Event, 'start' | 'end' | 'id'>, b: Pick<Event, 'start' | 'end' | 'id'>): number {
  return b.start - a.start || b.end - a.end || a.id - b.id;
}

/**
 * The indexes of `events` in list order (compareListOrder's; ties keep their order). Their keys
 * are read once into typed arrays: the events of a whole load have many shapes (their files' key
 * orders), and reading three keys of two of them at each of n log n comparisons costs several
 * times the sort of plain numbers.
 */
export function listOrderOf(events: readonly Pick<Event, 'start' | 'end' | 'id'>[]): Uint32Array {
  const n = events.length;
  const [start, end, id] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  for (let i = 0; i < n; i++) {
    const e = events[i];
    start[i] = e.start;
    end[i] = e.end;
    id[i] = e.id;
  }
  return new Uint32Array(n).map((_, i) => i).sort((a, b) => start[b] - start[a] || end[b] - end[a] || id[a] - id[b] || a - b);
}

/** Sorts `events` in list order in place, as `sort(compareListOrder)` does (listOrderOf). */
export function sortListOrder<T extends Pick<Event, 'start' | 'end' | 'id'>>(events: T[]): T[] {
  const was = events.slice();
  listOrderOf(was).forEach((from, i) => (events[i] = was[from]));
  return events;
}

/** The expanded form of a category: every key of categories.yaml, `id` first. */
export function renderCategory(c: Category): Record<string, unknown> {
  const { id, title, ...rest } = c;
  return { id, title, ...rest };
}
