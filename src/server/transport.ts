// The bytes of an answer on the wire: its body as the core made it (an event page stays a list of
// byte chunks, written with one writev), joined and compressed once per coding only when the
// client allows a coding, and its headers as node's flat list made once — a cached answer is
// written with no per-request work beyond node's own.
import type { ServerResponse } from 'node:http';
import { bodyBuffer, BodyChunks, pinBody, releaseBody, unpinBody, type ApiBody } from '../api/body.ts';
import type { ApiResponse } from '../api/respond.ts';
import { compressFor, compressible, compressOffThread, negotiateEncoding, type Encoding } from './compress.ts';

/** Text bodies of answers encoded once, so a repeated (cached) answer is not re-encoded per request. */
const encoded = new WeakMap<ApiResponse, Buffer>();

function wireBody(response: ApiResponse): Buffer | BodyChunks {
  const body = response.body;
  if (typeof body !== 'string') return body;
  let bytes = encoded.get(response);
  if (!bytes) encoded.set(response, (bytes = Buffer.from(body)));
  return bytes;
}

/**
 * Answers at least this large are compressed on libuv's thread pool rather than on the event
 * loop: below it compressing takes well under a millisecond.
 */
export const OFF_THREAD_BYTES = 64 * 1024;

/**
 * Answers larger than this (in bytes) go out as they are, whatever the client accepts: compressing
 * one would take a thread of the pool for about a second, which the request's work limit does not
 * count. A 1,000-event page or a 10,000-entry calendar stays well under it.
 */
export const MOST_COMPRESSED_BYTES = 8 * 1024 * 1024;

/**
 * Bytes of answers being compressed off the event loop at once, over every request. Past it a
 * large answer goes out as it is: each compression holds its body and an encoder until its turn
 * on libuv's four threads, and hundreds of clients asking for large compressed answers at once
 * would otherwise queue hundreds of them (memory without bound, and a cheap request's compression
 * waiting behind seconds of others'). Identity is always an answer the client can read (RFC 9110
 * §12.5.3: a server without an acceptable coding sends none).
 */
export const MOST_COMPRESSING_BYTES = 16 * 1024 * 1024;
let compressing = 0;

/** Compressed bodies, per answer and coding (or their compression under way): a cached answer is compressed once. */
const packed = new WeakMap<ApiResponse, Map<Encoding, Buffer | null | Promise<Buffer | null>>>();

function packedBody(response: ApiResponse, encoding: Encoding): Buffer | null | Promise<Buffer | null> {
  let forms = packed.get(response);
  if (!forms) packed.set(response, (forms = new Map()));
  let form = forms.get(encoding);
  if (form === undefined) {
    const body = bodyBuffer(wireBody(response));
    if (body.byteLength < OFF_THREAD_BYTES) form = compressFor(encoding, body, true);
    else if (compressing + body.byteLength > MOST_COMPRESSING_BYTES) return null; // (not kept: a later request may compress it)
    else {
      const size = body.byteLength;
      compressing += size;
      const pending = compressOffThread(encoding, body);
      form = pending;
      void pending.then((done) => forms.set(encoding, done), () => forms.delete(encoding)).finally(() => (compressing -= size));
    }
    forms.set(encoding, form);
  }
  return form;
}

export interface TransportForm {
  headers: Record<string, string>;
  body?: ApiBody;
}

/**
 * The bytes to send: compressed when the client allows it; a promise of them while a large
 * answer is being compressed off the event loop. A compressed answer varies on Accept-Encoding
 * and gets a weak ETag (the core matches If-None-Match weakly, so a 304 still works for either
 * form).
 */
export function transportForm(response: ApiResponse, acceptEncoding: string | undefined): TransportForm | Promise<TransportForm> {
  if (response.body.length === 0) return { headers: response.headers };
  // no Accept-Encoding (most API clients, every load generator): nothing to negotiate
  const encoding = acceptEncoding === undefined ? null : negotiateEncoding(acceptEncoding);
  if (!encoding || !compressible(response.headers['Content-Type']) || wireBody(response).length > MOST_COMPRESSED_BYTES) return { headers: response.headers, body: wireBody(response) };
  const zipped = packedBody(response, encoding);
  if (zipped instanceof Promise) return zipped.then((done) => zippedForm(response, encoding, done));
  return zippedForm(response, encoding, zipped);
}

function zippedForm(response: ApiResponse, encoding: Encoding, zipped: Buffer | null): TransportForm {
  if (!zipped) return { headers: response.headers, body: wireBody(response) };
  let headers = zippedHeaders.get(zipped);
  if (!headers) {
    headers = { ...response.headers, 'Content-Encoding': encoding, 'Content-Length': String(zipped.length) };
    headers.Vary = `${headers.Vary}, Accept-Encoding`;
    if (headers.ETag && !headers.ETag.startsWith('W/')) headers.ETag = `W/${headers.ETag}`;
    zippedHeaders.set(zipped, headers);
  }
  return { headers, body: zipped };
}

/** Headers of a compressed body, made once per cached answer and coding. */
const zippedHeaders = new WeakMap<Buffer, Record<string, string>>();

/**
 * Headers as node's flat [name, value, …] list, made once per header object: a cached answer
 * is written with no per-request header work beyond node's own.
 */
const flatForms = new WeakMap<Record<string, string>, string[]>();

export function flatHeaders(headers: Record<string, string>): string[] {
  let flat = flatForms.get(headers);
  if (!flat) {
    flat = Object.entries(headers).flat();
    flatForms.set(headers, flat);
  }
  return flat;
}

/**
 * Writes the body and ends the response; returns the bytes written. Chunks are corked so node
 * hands them to the socket together with the headers in one writev, without joining them.
 */
export function endWith(res: ServerResponse, body: ApiBody | undefined): number {
  if (!(body instanceof BodyChunks)) {
    res.end(body);
    return body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  }
  res.cork();
  for (const chunk of body.chunks) if (chunk.byteLength > 0) res.write(chunk);
  // end() uncorks fully: the headers and every chunk leave in one writev
  res.end();
  return body.length;
}

/**
 * Gives the answer's pooled body bytes back (store/read/page-buffers.ts) once they have left for
 * the socket: at once when the write went through synchronously (the usual case: the kernel took
 * every byte), else when the response finishes. A response that never finishes (the client went
 * away mid-write) keeps its bytes, which then are ordinary garbage (a kept body's block stays
 * pinned: never reused, dropped with its last reference).
 */
export function releaseWhenWritten(res: ServerResponse, body: ApiBody): void {
  if (typeof body === 'string') return;
  if (res.socket !== null && res.writableFinished) {
    releaseBody(body);
    return;
  }
  // a body the answer cache keeps is not the server's to release, but its block must not go back
  // to the pool (when the cache drops it) while this write still reads it
  pinBody(body);
  res.once('finish', () => {
    unpinBody(body);
    releaseBody(body);
  });
}
