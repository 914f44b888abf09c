// Which files of dist/ are public, under which URL and with which Content-Type: one list read
// by `aula serve`, the nginx config and the Netlify/Vercel rules, so every deployment answers
// the same files. The rest of dist/ (data/, manifest.json, deploy/, the host configs) is the
// server's and the deployer's, never served.

/** dist/data/media-files.json: the media files the build copied, by id. */
export const MEDIA_FILES_INDEX = 'data/media-files.json';

/** Where the build copies the file of media record `id`: under the id, keeping a safe name. */
export const MEDIA_DIR = 'cms/media';

export interface MediaFile {
  id: number;
  /** relative to dist/, e.g. `cms/media/101/meduni-logo.png` */
  file: string;
  mimetype: string;
}

/**
 * The public files named by their content's hash (src/store/write/hashed-files.ts): their bytes never
 * change under that name, so every host may cache them for a year.
 */
export const IMMUTABLE_FILE_NAMES = 'autocomplete/(?:autocomplete\\.[0-9a-f]{12}\\.js|index\\.[0-9a-f]{12}\\.json)';

/** Cache-Control of the hashed files, from aula serve and every generated host rule alike. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const IMMUTABLE_FILE_RE = new RegExp(`^(?:${IMMUTABLE_FILE_NAMES})$`);

/**
 * The public files other than media, relative to dist/ and also their URL below the base URL's
 * path. Written for PCRE (nginx) and JavaScript alike; the names are the build's own.
 */
export const PUBLIC_FILE_NAMES = `events\\.ics|openapi\\.json|schemas/[a-z0-9-]+\\.schema\\.json|autocomplete/(?:autocomplete\\.js|index\\.json|minisearch\\.json|minisearch-options\\.js)|${IMMUTABLE_FILE_NAMES}`;

export const PUBLIC_FILE = `^(?:${PUBLIC_FILE_NAMES})$`;

const PUBLIC_FILE_RE = new RegExp(PUBLIC_FILE);

export function isPublicFile(rel: string): boolean {
  return PUBLIC_FILE_RE.test(rel);
}

export function isImmutableFile(rel: string): boolean {
  return IMMUTABLE_FILE_RE.test(rel);
}

const MEDIA_URL = new RegExp(`^${MEDIA_DIR}/([0-9]{1,15})/$`);

/** What a request path names: a public file (relative to dist/), a media record's file, or nothing. */
export type PublicTarget = { file: string } | { media: number } | null;

/**
 * The public file a raw (percent-encoded) request path names, below `prefix` (the base URL's
 * path without its trailing slash) or at the root: one reading for `aula serve` and the edge.
 */
export function publicTarget(prefix: string, raw: string): PublicTarget {
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (prefix && path.startsWith(`${prefix}/`)) path = path.slice(prefix.length);
  if (!path.startsWith('/')) return null;
  const rel = path.slice(1);
  if (isPublicFile(rel)) return { file: rel };
  const media = MEDIA_URL.exec(rel);
  return media ? { media: Number(media[1]) } : null;
}

/** Content-Type of a public file by extension: as the API sends the same kind of answer. */
export const PUBLIC_TYPES: Readonly<Record<string, string>> = {
  ics: 'text/calendar; charset=utf-8',
  json: 'application/json',
  js: 'text/javascript; charset=utf-8',
};

export function publicType(rel: string): string {
  return PUBLIC_TYPES[rel.slice(rel.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/**
 * The media types a browser runs scripts in when it opens such a file: their answers carry
 * `Content-Security-Policy: sandbox`, which opens the document in an origin of its own, so a
 * script in an `.svg` or `.html` media file does not run on base_url's origin. Only these: Chrome's
 * PDF viewer does not open a PDF under `sandbox`, and the other types run no script.
 */
const SCRIPTED_MEDIA_TYPES: ReadonlySet<string> = new Set(['text/html', 'image/svg+xml']);

/** The policy of a scripted media file's answer (SCRIPTED_MEDIA_TYPES). */
export const MEDIA_SANDBOX = { name: 'Content-Security-Policy', value: 'sandbox' } as const;

export function isScriptedMediaType(mimetype: string): boolean {
  return SCRIPTED_MEDIA_TYPES.has(mimetype.split(';')[0].trim().toLowerCase());
}

/** The headers of a media file's answer, from `aula serve` and the edge alike. */
export function mediaHeaders(mimetype: string, cacheControl: string): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': mimetype, 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' };
  if (isScriptedMediaType(mimetype)) headers[MEDIA_SANDBOX.name] = MEDIA_SANDBOX.value;
  return headers;
}

/** The methods a public file answers; any other is a 405 naming these, where the file exists. */
export const PUBLIC_FILE_METHODS = 'GET, HEAD';

/** The URL path of a media record's file (the API's media `url` without the origin). */
export function mediaPath(prefix: string, id: number): string {
  return `${prefix}/${MEDIA_DIR}/${id}/`;
}

/** The dist/ path a media file is copied to: its name reduced to characters every host and config takes. */
export function mediaFileName(id: number, sourceName: string): string {
  const dot = sourceName.lastIndexOf('.');
  const ext = dot > 0 ? sourceName.slice(dot + 1).toLowerCase().replace(/[^a-z0-9]/g, '') : '';
  const stem = (dot > 0 ? sourceName.slice(0, dot) : sourceName).replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'file';
  return `${MEDIA_DIR}/${id}/${stem}${ext ? `.${ext}` : ''}`;
}

/** The media files' index as the build writes it and parseMediaFiles reads it. */
export const mediaFilesText = (files: readonly MediaFile[]) => `${JSON.stringify(files)}\n`;

export function parseMediaFiles(text: string): MediaFile[] {
  const list = JSON.parse(text) as MediaFile[];
  if (!Array.isArray(list)) throw new Error('not a list');
  for (const m of list) {
    if (!Number.isInteger(m.id) || typeof m.mimetype !== 'string' || typeof m.file !== 'string' || !m.file.startsWith(`${MEDIA_DIR}/${m.id}/`) || m.file.includes('..')) {
      throw new Error(`not a media file entry: ${JSON.stringify(m)}`);
    }
  }
  return list;
}
