// An answer's body in the forms the core produces: text, one byte buffer, or byte chunks (an
// event page: the envelope's pieces and each event's stored UTF-8, in order). Chunks are written
// to a socket as they are (one writev), so an uncompressed page is never copied into one buffer;
// whoever needs the body whole (compression, the static build, the edge worker, the HTML
// renderer) asks for it here.

import { blockLength, dropKept, isKept, isPooled, keepBuffer, keepLent, lendBack, pin, releaseBuffer, takeBuffer, unpin } from '../store/read/page-buffers.ts';

/** Byte chunks in order; their concatenation is the body. */
export class BodyChunks {
  /** the body's length in bytes, as Buffer's and string's `length` (so `body.length === 0` reads alike) */
  readonly length: number;

  constructor(readonly chunks: readonly Uint8Array[]) {
    let n = 0;
    for (const c of chunks) n += c.byteLength;
    this.length = n;
  }

  /** The chunks joined (a copy). */
  joined(): Buffer {
    const c = this.chunks;
    return c.length === 1 ? Buffer.from(c[0].buffer, c[0].byteOffset, c[0].byteLength) : Buffer.concat(c, this.length);
  }

  /** The body decoded as UTF-8, as Buffer's toString(). */
  toString(): string {
    return this.joined().toString('utf8');
  }
}

export type ApiBody = string | Buffer | BodyChunks;

/** The body's length in bytes (what Content-Length says). */
export function bodyByteLength(body: ApiBody): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}

/** The body as one buffer: the buffer itself, the text encoded, or the chunks joined. */
export function bodyBuffer(body: ApiBody): Buffer {
  if (typeof body === 'string') return Buffer.from(body);
  return body instanceof BodyChunks ? body.joined() : body;
}

/** The body as text (UTF-8). */
export function bodyText(body: ApiBody): string {
  return typeof body === 'string' ? body : body.toString();
}

/**
 * The body as one buffer of its own, for whatever keeps a body past its request (the answer
 * cache): none of its bytes may stay on the server's reusable page buffers (they go back to their
 * pool once the answer that borrowed them is written), and a kept answer is written far more often
 * than it is copied once — as many slices (expand=categories: rows and category lists in turn) each
 * write would hand the kernel dozens of pieces. A single buffer of its own is kept as it is.
 */
export function detachedBody(body: ApiBody): ApiBody {
  if (typeof body === 'string') return body;
  const chunks = body instanceof BodyChunks ? body.chunks : [body];
  if (chunks.length === 1 && !isPooled(chunks[0])) return body;
  const copy = Buffer.allocUnsafeSlow(body.length);
  let at = 0;
  for (const chunk of chunks) {
    copy.set(chunk, at);
    at += chunk.byteLength;
  }
  return copy;
}

/**
 * As detachedBody, for the server's answer cache, whose copies live on the page pool's blocks and
 * go back to it when the cache drops them (`dropKeptBody`): no fresh allocation per admitted
 * answer. A body that is one lent block of its own (a page read for this answer) is taken over as
 * it is, without a copy. Only for a cache whose bodies are pinned while a write of them is under
 * way (see `pinBody`): the server's.
 */
export function keptBody(body: ApiBody): ApiBody {
  if (typeof body === 'string') return body;
  const chunks = body instanceof BodyChunks ? body.chunks : [body];
  if (chunks.length === 1 && !isPooled(chunks[0])) return body;
  if (!(body instanceof BodyChunks) && keepLent(body)) return body;
  const copy = keepBuffer(body.length);
  let at = 0;
  for (const chunk of chunks) {
    copy.set(chunk, at);
    at += chunk.byteLength;
  }
  return copy;
}

/** The bytes keptBody's result would hold (heldBytes of it), without keeping anything. */
export function keptBytes(body: Buffer | BodyChunks): number {
  const single = body instanceof BodyChunks ? (body.chunks.length === 1 ? body.chunks[0] : null) : body;
  // a body on no pooled block is kept as it is; any other lies on a block of its length's class
  return single !== null && !isPooled(single) ? body.length : blockLength(body.length);
}

/** The bytes a body holds: a kept body's whole block, else its length. */
export function heldBytes(body: Buffer | BodyChunks): number {
  return body instanceof BodyChunks || !isKept(body) ? body.length : body.buffer.byteLength;
}

/** The cache drops a body it kept (keptBody): its block goes back to the pool once no write of it is under way. */
export function dropKeptBody(body: ApiBody): void {
  if (typeof body !== 'string' && !(body instanceof BodyChunks)) dropKept(body);
}

/** Undoes keptBody's taking over of an answer's own block (the cache dropped it before it was written): the server releases it again. */
export function lentBackBody(body: ApiBody): void {
  if (typeof body !== 'string' && !(body instanceof BodyChunks)) lendBack(body);
}

/** A write of the body is under way and did not go through at once: a kept block is not reused before unpinBody. */
export function pinBody(body: ApiBody): void {
  if (typeof body !== 'string' && !(body instanceof BodyChunks)) pin(body);
}

/** The write pinBody announced is done. */
export function unpinBody(body: ApiBody): void {
  if (typeof body !== 'string' && !(body instanceof BodyChunks)) unpin(body);
}

/**
 * The chunks copied into one buffer from the server's page pool, their own pooled bytes handed
 * back at once (nothing else may hold them: the rows read for this answer alone). For an answer
 * spliced from many slices (expand=categories: three per event) one copy of ~50 KB costs far less
 * than writing the slices one by one: each is a write() through node's stream machinery and an
 * iovec of its own for the kernel, ~80 per page. The result is released like any pooled body,
 * once written.
 */
export function joinedOnPool(chunks: readonly Uint8Array[]): Buffer {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = takeBuffer(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  // after the copy: the output block was taken while these were still lent, so it is none of them
  releaseAll(chunks);
  return out;
}

/**
 * Hands back the pooled blocks under `chunks` (only bytes read for one answer, copied and held by
 * nothing else). Most chunks are slices of a few blocks (the rows' runs, the shared expansions):
 * each block is looked at once per stretch of its chunks, not once per chunk.
 */
export function releaseAll(chunks: readonly Uint8Array[]): void {
  let last: ArrayBufferLike | null = null;
  for (const chunk of chunks) {
    if (chunk.buffer === last) continue;
    last = chunk.buffer;
    releaseBuffer(chunk);
  }
}

/** Hands the body's pooled bytes back (see store/read/page-buffers.ts): only once it is written and nothing else holds it. */
export function releaseBody(body: ApiBody): void {
  if (typeof body === 'string') return;
  if (body instanceof BodyChunks) body.chunks.forEach(releaseBuffer);
  else releaseBuffer(body);
}
