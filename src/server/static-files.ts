// The public files of dist/ as `aula serve` answers them: the calendar, the OpenAPI document,
// the JSON Schemas, the autocomplete module and index (with their .br/.gz forms), and the media
// files at the URL the API gives them. Only names src/store/format/public-files.ts declares public are
// ever looked up, so nothing else of dist/ (data/, manifest.json, deploy/) and nothing outside it
// can be reached, whatever the request path holds.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { matchesEtag, methodNotAllowed } from '../api/respond.ts';
import { negotiateEncoding, type Encoding } from './compress.ts';
import { IMMUTABLE_CACHE_CONTROL, isImmutableFile, MEDIA_DIR, MEDIA_FILES_INDEX, mediaHeaders, parseMediaFiles, PUBLIC_FILE_METHODS, publicTarget, publicType, type MediaFile } from '../store/format/public-files.ts';
import { DEFAULT_CACHE_CONTROL } from '../defaults.ts';

/**
 * writeHead with the headers set one by one: writeHead(status, object) alone sends them without
 * keeping them, and the access log reads the body's length back with getHeader('Content-Length').
 */
function writeHeadKept(res: ServerResponse, status: number, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(status);
}

/** A strong validator from a file's bytes, hashed once when the file is first asked for. */
function fileEtag(bytes: Uint8Array): string {
  return `"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

export interface StaticRequest {
  method: string;
  /** the raw (percent-encoded) path of the request */
  path: string;
  acceptEncoding?: string;
  ifNoneMatch?: string;
  /** adds the headers every answer of the server carries for this request (CORS) */
  withHeaders?: (headers: Record<string, string>) => Record<string, string>;
}

interface Loaded {
  bytes: Buffer;
  etag: string;
  forms: Map<Encoding, Buffer | null>;
}

/**
 * The first letters of the public names (PUBLIC_FILE_NAMES: events.ics, openapi.json, schemas/,
 * autocomplete/; and the media directory); static-files.test.ts checks them against the names.
 */
const PUBLIC_FIRST_LETTERS = `eosa${MEDIA_DIR.charAt(0)}`;

const EXTENSION: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/**
 * Where the public files come from: dist/ (`aula serve`), or what `aula dev` made in memory for
 * the build it serves, whose dist/ is not written yet (src/dev/public-files.ts).
 */
export interface PublicSource {
  /** a file's bytes (relative to dist/), null when there is none, 'pending' while it is not made yet (503) */
  read(rel: string): Buffer | null | 'pending';
  /** the file on disk to stream a media file (relative to dist/) from, null when there is none */
  mediaPath(rel: string): string | null;
}

/** dist/'s own files. */
export function distPublicSource(dist: string): PublicSource {
  return { read: (rel) => readOrNull(join(dist, rel)), mediaPath: (rel) => join(dist, rel) };
}

/** Until a file a served edit changes is made: the client asks again in a moment. */
const PENDING_BODY = '{"detail":"This file is being made for the latest edit; retry in a moment."}';

/**
 * Answers public-file requests for one loaded dist/ (the server makes a new one on reload).
 * A file is read on its first request and kept; media files are streamed from disk.
 */
export class StaticFiles {
  private readonly files = new Map<string, Loaded | null>();
  private media: Map<number, MediaFile> | null = null;
  private readonly prefix: string;
  private readonly source: PublicSource;

  constructor(
    dist: string | PublicSource,
    baseUrl: string,
    private readonly cacheControl = DEFAULT_CACHE_CONTROL,
  ) {
    this.prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
    this.source = typeof dist === 'string' ? distPublicSource(dist) : dist;
  }

  /**
   * False when `path` cannot name a public file, decided without decoding it: every API request
   * passes here first, and its path (`/v1/…`) starts with none of the public names' first letters.
   */
  mayAnswer(path: string): boolean {
    if (path.includes('%')) return true;
    const rel = this.prefix && path.startsWith(`${this.prefix}/`) ? path.slice(this.prefix.length) : path;
    const first = rel.charAt(1);
    return first !== '' && PUBLIC_FIRST_LETTERS.includes(first);
  }

  /** Writes the answer and returns true, or returns false when the path is not a public file. */
  answer(request: StaticRequest, res: ServerResponse): boolean {
    const target = publicTarget(this.prefix, request.path);
    if (target === null) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const exists = 'file' in target ? this.load(target.file) !== null : this.mediaFile(target.media) !== null;
      return exists && this.refuse(request, res);
    }
    return 'file' in target ? this.sendFile(target.file, request, res) : this.sendMedia(target.media, request, res);
  }

  /** Any method but GET and HEAD on a public file: the API's 405, naming the two (nginx's is 405 too). */
  private refuse(request: StaticRequest, res: ServerResponse): true {
    const { headers, body } = methodNotAllowed(request.method, { Allow: PUBLIC_FILE_METHODS });
    const sent = { ...headers, 'Content-Length': String(Buffer.byteLength(body as string)) };
    writeHeadKept(res, 405, request.withHeaders?.(sent) ?? sent);
    res.end(body);
    return true;
  }

  private load(rel: string): Loaded | null | 'pending' {
    if (!this.files.has(rel)) {
      const bytes = this.source.read(rel);
      // (asked again next time: it is made meanwhile)
      if (bytes === 'pending') return bytes;
      this.files.set(rel, bytes && { bytes, etag: fileEtag(bytes), forms: new Map() });
    }
    return this.files.get(rel)!;
  }

  private sendFile(rel: string, request: StaticRequest, res: ServerResponse): boolean {
    const file = this.load(rel);
    if (!file) return false;
    if (file === 'pending') {
      const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Retry-After': '1', 'Content-Length': String(PENDING_BODY.length) };
      writeHeadKept(res, 503, request.withHeaders?.(headers) ?? headers);
      res.end(request.method === 'HEAD' ? undefined : PENDING_BODY);
      return true;
    }
    const encoding = negotiateEncoding(request.acceptEncoding);
    let body = file.bytes;
    const headers: Record<string, string> = {
      'Content-Type': publicType(rel),
      'Cache-Control': isImmutableFile(rel) ? IMMUTABLE_CACHE_CONTROL : this.cacheControl,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
      ETag: file.etag,
    };
    if (encoding) {
      if (!file.forms.has(encoding)) {
        const form = this.source.read(rel + EXTENSION[encoding]);
        file.forms.set(encoding, form === 'pending' ? null : form);
      }
      const packed = file.forms.get(encoding);
      if (packed) {
        body = packed;
        headers['Content-Encoding'] = encoding;
        headers.ETag = `W/${file.etag}`;
      }
    }
    if (matchesEtag(request.ifNoneMatch, file.etag)) {
      delete headers['Content-Type'];
      delete headers['Content-Encoding'];
      res.writeHead(304, request.withHeaders?.(headers) ?? headers);
      res.end();
      return true;
    }
    headers['Content-Length'] = String(body.length);
    writeHeadKept(res, 200, request.withHeaders?.(headers) ?? headers);
    res.end(request.method === 'HEAD' ? undefined : body);
    return true;
  }

  /** The media file of record `id` and its size, or null when the index or the disk has none. */
  private mediaFile(id: number): { path: string; media: MediaFile; size: number } | null {
    if (!this.media) {
      const index = this.source.read(MEDIA_FILES_INDEX);
      const text = index === 'pending' ? null : index;
      let list: MediaFile[] = [];
      try {
        if (text) list = parseMediaFiles(text.toString('utf8'));
      } catch {
        // a corrupt index answers no media rather than failing every request
      }
      this.media = new Map(list.map((m) => [m.id, m]));
    }
    const media = this.media.get(id);
    if (!media) return null;
    const path = this.source.mediaPath(media.file);
    if (path === null) return null;
    try {
      const info = statSync(path);
      return info.isFile() ? { path, media, size: info.size } : null;
    } catch {
      return null;
    }
  }

  private sendMedia(id: number, request: StaticRequest, res: ServerResponse): boolean {
    const found = this.mediaFile(id);
    if (!found) return false;
    const { path, media, size } = found;
    const headers = { ...mediaHeaders(media.mimetype, this.cacheControl), 'Content-Length': String(size) };
    writeHeadKept(res, 200, request.withHeaders?.(headers) ?? headers);
    if (request.method === 'HEAD') res.end();
    else createReadStream(path).on('error', () => res.destroy()).pipe(res);
    return true;
  }
}
