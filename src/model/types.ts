// The validated model: what content/ means once it has been loaded and checked.
// Every later stage (rendering, dist, API, autocomplete) starts from these types and
// never looks at content files again.

/** Instants are milliseconds since the Unix epoch (UTC). Rendering applies the site zone. */
export type Instant = number;

export interface Site {
  /** Absolute origin plus optional path prefix, without a trailing slash. */
  base_url: string;
  /** IANA zone name used to write and read naive timestamps. */
  timezone: string;
  page_size: number;
  max_page_size: number;
  /** the site's name, e.g. the calendar's; null: none given (the calendar names the host) */
  title: string | null;
}

export interface PageNode {
  uid: number;
  pid: number;
  title: string;
  is_siteroot: boolean;
  domains: string[];
  uri: string | null;
}

/** A category keeps every key of categories.yaml, `id` first, `title` next, then the rest in file order. */
export type Category = { id: number; title: string } & Record<string, unknown>;

export interface Media {
  id: number;
  filename: string;
  original: string | null;
  mimetype: string;
  size: number;
  /** the checked file inside the content folder named by `file:`, which the build copies to dist/ (never rendered) */
  source?: string;
  /**
   * the last part of the path `file:` wrote: the copy is named after it, as `mimetype` is typed after
   * it (`source` is the real path, which for a link is its target's, e.g. a content-addressed blob)
   */
  sourceName?: string;
}

export interface RelatedMedia {
  id: number;
  /** media id */
  media: number;
  datetime: Instant;
  title: string | null;
  description: string | null;
}

export interface Event {
  id: number;
  title: string;
  start: Instant;
  end: Instant;
  allday: boolean;
  url: string | null;
  link: string | null;
  /** uid of the page-tree node, or null */
  page: number | null;
  categories: number[];
  /** media id or null */
  header_image: number | null;
  /** media ids */
  media: number[];
  related_media: RelatedMedia[];
  organizer: string | null;
  location: string | null;
  contact: string | null;
  email: string | null;
  attending_fees_info: string | null;
  /** plain text, explicit or derived from the body */
  teaser: string;
  /** HTML, trimmed */
  body: string;
  register: boolean;
  attending_fees: boolean;
  registration_end: Instant | null;
  dfp_points: number | null;
  last_modified: Instant;
  keywords: unknown;
  description: unknown;
  language: unknown;
  gallery: unknown[];
  contact_box: unknown[];
  groups: unknown[];
  related_links: unknown[];
}

export const DIRECTORY_MODELS = [
  'campus.Person',
  'campus.Room',
  'campus.Student',
  'geo.Room',
  'structure.Organization',
  'structure.Person',
] as const;
export type DirectoryModel = (typeof DIRECTORY_MODELS)[number];

export type DirectoryKind = 'person' | 'room' | 'organization';

export function directoryKind(model: DirectoryModel): DirectoryKind {
  if (model.endsWith('.Room')) return 'room';
  if (model === 'structure.Organization') return 'organization';
  return 'person'; // campus.Person, campus.Student, structure.Person
}

export interface DirectoryObject {
  model: DirectoryModel;
  id: number;
  /** explicit or computed display text, parts joined by single spaces, WITHOUT the trailing "\n" */
  presentation: string;
  /** extra search terms, never shown */
  keywords: string[];
  /** persons and students */
  title: string | null;
  first_name: string | null;
  last_name: string | null;
  title_after: string | null;
  /** rooms and organizations */
  name: string | null;
  /** rooms */
  code: string | null;
  level_id: number | null;
  room_id: number | null;
}

/** The kind-specific fields of a directory object, all absent: each kind fills in its own. */
export function noKindFields(): Omit<DirectoryObject, 'model' | 'id' | 'presentation' | 'keywords'> {
  return { title: null, first_name: null, last_name: null, title_after: null, name: null, code: null, level_id: null, room_id: null };
}

export interface Model {
  site: Site;
  /** keyed by uid */
  pages: Map<number, PageNode>;
  /** in ascending id order */
  categories: Category[];
  /** keyed by id */
  media: Map<number, Media>;
  /** in content order (unsorted); the list order is applied when rendering */
  events: Event[];
  directory: DirectoryObject[];
}
