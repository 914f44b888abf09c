// On-the-fly compression of the server's answers: which coding a client accepts, and the body in it.
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/**
 * Above this, the top levels cost seconds per file (the autocomplete index can be tens of MB):
 * brotli 5 then, and gzip 6, which on a 16 MB index is 5× faster than 9 for 0.7 % more bytes.
 */
export const TOP_LEVEL_LIMIT = 1024 * 1024;

/** Below this, the compressed body plus Content-Encoding saves nothing worth the CPU. */
export const MIN_COMPRESS_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

function brotliOptions(bytes: Uint8Array, quality: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  };
}

/** A valid RFC 9110 weight, or null for a malformed one (the whole member is then ignored). */
function weight(params: string[]): number | null {
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const value = p.slice(eq + 1).trim();
    return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : null;
  }
  return 1;
}

/**
 * The coding to answer with, per RFC 9110 §12.5.3: the highest q wins, brotli before gzip on a
 * tie (smaller); `*` stands for every coding not named. Identity competes only when named
 * (`gzip;q=0.5` still means "gzip, please"), and loses ties. No header: no coding.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (acceptEncoding === undefined) return null;
  const q = new Map<string, number>();
  for (const member of acceptEncoding.split(',')) {
    const [name, ...params] = member.split(';');
    let coding = name.trim().toLowerCase();
    if (!coding) continue;
    if (coding === 'x-gzip') coding = 'gzip';
    const w = weight(params);
    if (w !== null && !q.has(coding)) q.set(coding, w);
  }
  const star = q.get('*');
  const of = (coding: string) => q.get(coding) ?? star ?? 0;
  const identity = q.get('identity') ?? 0;
  const br = of('br');
  const gzip = of('gzip');
  const best: Encoding | null = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : null;
  if (best === null) return null;
  return (best === 'br' ? br : gzip) >= identity ? best : null;
}

/**
 * The body compressed for `encoding`, or null when it should go out as it is (no coding, or too
 * small to gain). `dynamic`: computed for this request, so favour latency (brotli 4, gzip 6 are
 * within a few percent of the best ratio on JSON at a fraction of the time); otherwise the
 * result is kept and reused, so spend what a build spends.
 */
export function compressFor(encoding: Encoding | null, body: Buffer, dynamic: boolean): Buffer | null {
  if (encoding === null || body.byteLength < MIN_COMPRESS_BYTES) return null;
  return encoding === 'gzip' ? gzipSync(body, gzipOptions(body, dynamic)) : brotliCompressSync(body, brotliOptions(body, brotliQuality(body, dynamic)));
}

/**
 * As compressFor, on a thread of libuv's pool: the event loop goes on answering while a large
 * answer is compressed (a 2 MB page takes tens of milliseconds of CPU).
 */
export function compressOffThread(encoding: Encoding, body: Buffer): Promise<Buffer | null> {
  if (body.byteLength < MIN_COMPRESS_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'gzip') gzip(body, gzipOptions(body, true), done);
    else brotliCompress(body, brotliOptions(body, brotliQuality(body, true)), done);
  });
}

function gzipOptions(body: Uint8Array, dynamic: boolean): ZlibOptions {
  return { level: dynamic || body.byteLength > TOP_LEVEL_LIMIT ? 6 : 9 };
}

function brotliQuality(body: Uint8Array, dynamic: boolean): number {
  return dynamic ? 4 : body.byteLength <= TOP_LEVEL_LIMIT ? 11 : 5;
}

/** Content types worth compressing (the server's JSON, browsable HTML, calendars, scripts). */
export function compressible(contentType: string | undefined): boolean {
  return contentType !== undefined && /^(?:application\/(?:json|javascript)|text\/)/i.test(contentType.trim());
}
