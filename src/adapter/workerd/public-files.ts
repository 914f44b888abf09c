// dist/'s public files on the edge, answered as `aula serve` answers them (src/server/static-files.ts):
// the same names (only those src/deploy/public-files.ts declares public, so data/, manifest.json and
// edge/ are never reached), Content-Type, Cache-Control and ETag, read through the ASSETS binding.
// Bodies are streamed through, except on a file's first request, when its bytes are read whole for
// its ETag anyway and answer that request too.
import { matchesEtag, methodNotAllowed } from '../../api/respond.ts';
import { IMMUTABLE_CACHE_CONTROL, isImmutableFile, MEDIA_FILES_INDEX, mediaHeaders, parseMediaFiles, PUBLIC_FILE_METHODS, publicTarget, publicType, type MediaFile } from '../../store/format/public-files.ts';
import type { AssetFetcher } from './assets.ts';

export interface PublicFileRequest {
  method: string;
  /** the raw (percent-encoded) path */
  path: string;
  ifNoneMatch?: string;
}

/** The server's validator: SHA-1 of the bytes, base64url, quoted (static-files.ts). */
async function fileEtag(bytes: ArrayBuffer): Promise<string> {
  return `"${Buffer.from(await crypto.subtle.digest('SHA-1', bytes)).toString('base64url')}"`;
}

/**
 * One per loaded dataset, as the server makes one StaticFiles per loaded dist/. A file's ETag is
 * computed on its first request and kept for the isolate's life, as the API's data is; on
 * Workers an isolate never outlives the deploy it serves.
 */
export class EdgePublicFiles {
  private readonly etags = new Map<string, Promise<string | null>>();
  private readonly documents = new Map<string, Promise<{ etag: string; bytes: ArrayBuffer } | null>>();
  private media: Promise<Map<number, MediaFile>> | null = null;
  private readonly prefix: string;

  /**
   * `document`: under a base URL other than the build's, the bytes of a document of dist/ that
   * names it (openapi.json, events.ics) as the API answers it now; undefined for other files.
   */
  constructor(
    private readonly assets: AssetFetcher,
    baseUrl: string,
    private readonly cacheControl: string,
    private readonly document: (rel: string) => Promise<Uint8Array | null> | undefined = () => undefined,
  ) {
    this.prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  }

  /** The answer, or null when the path names no public file that exists (the API answers then). */
  async answer(request: PublicFileRequest): Promise<Response | null> {
    const target = publicTarget(this.prefix, request.path);
    if (target === null) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      // the file's 405 where it exists, as from the server (static-files.ts)
      const found = await ('file' in target ? this.sendFile(target.file, { ...request, method: 'HEAD' }) : this.sendMedia(target.media, { ...request, method: 'HEAD' }));
      if (found === null) return null;
      const { status, headers, body } = methodNotAllowed(request.method, { Allow: PUBLIC_FILE_METHODS });
      return new Response(body as string, { status, headers });
    }
    return 'file' in target ? this.sendFile(target.file, request) : this.sendMedia(target.media, request);
  }

  private fetchAsset(rel: string, method: string): Promise<Response> {
    // the host is ignored by both bindings; public names hold no character that needs escaping
    return this.assets.fetch(`https://assets.invalid/${rel}`, { method });
  }

  /**
   * The file's ETag, and on its first request the bytes it was computed from: the ETag needs the
   * whole file, so that one read also answers the request instead of fetching the file again.
   */
  private async validated(rel: string): Promise<{ etag: string; bytes?: ArrayBuffer } | null> {
    const known = this.etags.get(rel);
    if (known) {
      const etag = await known;
      return etag === null ? null : { etag };
    }
    const document = this.madeDocument(rel);
    if (document !== undefined) return document;
    const read = this.fetchAsset(rel, 'GET').then(async (res) => {
      if (res.ok) return res.arrayBuffer();
      await res.body?.cancel();
      return null;
    });
    const etag = read.then((bytes) => (bytes === null ? null : fileEtag(bytes)));
    this.etags.set(rel, etag);
    // an absent file may be deployed later, a failed fetch may succeed: neither is kept
    etag.then((tag) => tag === null && this.etags.delete(rel), () => this.etags.delete(rel));
    const [bytes, tag] = await Promise.all([read, etag]);
    return bytes === null || tag === null ? null : { etag: tag, bytes };
  }

  /** A document made from the data, once for the isolate, kept with its ETag (the asset is another URL's); undefined for other files. */
  private madeDocument(rel: string): Promise<{ etag: string; bytes: ArrayBuffer } | null> | undefined {
    const kept = this.documents.get(rel);
    if (kept !== undefined) return kept;
    const made = this.document(rel)?.then(async (b) => {
      if (b === null) return null;
      const bytes = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
      return { etag: await fileEtag(bytes), bytes };
    });
    if (made === undefined) return undefined;
    this.documents.set(rel, made);
    made.catch(() => this.documents.delete(rel));
    return made;
  }

  private async sendFile(rel: string, request: PublicFileRequest): Promise<Response | null> {
    const validated = await this.validated(rel);
    if (validated === null) return null;
    const { etag, bytes } = validated;
    const headers: Record<string, string> = {
      'Cache-Control': isImmutableFile(rel) ? IMMUTABLE_CACHE_CONTROL : this.cacheControl,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
      ETag: etag,
    };
    if (matchesEtag(request.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
    if (bytes) {
      const sent = { 'Content-Type': publicType(rel), ...headers, 'Content-Length': String(bytes.byteLength) };
      return new Response(request.method === 'HEAD' ? null : bytes, { status: 200, headers: sent });
    }
    const file = await this.fetchAsset(rel, request.method);
    if (!file.ok) {
      await file.body?.cancel();
      return null;
    }
    return this.stream(file, request.method, { 'Content-Type': publicType(rel), ...headers });
  }

  private mediaFiles(): Promise<Map<number, MediaFile>> {
    this.media ??= this.fetchAsset(MEDIA_FILES_INDEX, 'GET').then(
      async (res) => {
        let list: MediaFile[] = [];
        try {
          if (res.ok) list = parseMediaFiles(await res.text());
          else await res.body?.cancel();
        } catch {
          // a corrupt index answers no media rather than failing every request, as on the server
        }
        return new Map(list.map((m) => [m.id, m]));
      },
      (e: unknown) => {
        this.media = null;
        throw e;
      },
    );
    return this.media;
  }

  private async sendMedia(id: number, request: PublicFileRequest): Promise<Response | null> {
    const media = (await this.mediaFiles()).get(id);
    if (!media) return null;
    const file = await this.fetchAsset(media.file, request.method);
    if (!file.ok) {
      await file.body?.cancel();
      return null;
    }
    return this.stream(file, request.method, mediaHeaders(media.mimetype, this.cacheControl));
  }

  /** The asset's bytes under the server's headers; none of the asset service's own headers pass. */
  private stream(file: Response, method: string, headers: Record<string, string>): Response {
    const length = file.headers.get('Content-Length');
    if (length !== null) headers['Content-Length'] = length;
    if (method === 'HEAD') {
      void file.body?.cancel();
      return new Response(null, { status: 200, headers });
    }
    return new Response(file.body, { status: 200, headers });
  }
}
