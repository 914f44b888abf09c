// What the build cache's files are keyed by: the identity of the code and runtime that wrote them
// (a file of another is foreign), SHA-256 of parts, and each content file's parse key, which the
// event state records so that a build over it parses only files whose text changed.
import * as crypto from 'node:crypto';
import { CHECKSUM } from '../../util/checksum.ts';
import { DIST_FORMAT } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { codeVersion } from './code-version.ts';

/** What a cache file must declare to be read: anything else was written by another build of aula. */
export const cacheIdentity = (): string => IDENTITY;
// Node's and V8's versions, not cachedDataVersionTag(): that hashes the V8 flags too, which `aula
// build` sets and `aula dev` does not. tz and ICU: Intl makes offsets and folded texts, and a
// system ICU changes them without a new Node.
const IDENTITY = JSON.stringify({
  code: codeVersion(), aula: AULA_VERSION, format: DIST_FORMAT, node: process.version, v8: process.versions.v8,
  tz: process.versions.tz ?? '', icu: process.versions.icu ?? '', unicode: process.versions.unicode ?? '', sum: CHECKSUM,
});

// For keys made once per file or row, a Hash object costs more than the hashing of a few KB: the
// parts are copied into one buffer and hashed in one call (crypto.hash, Node 20.12+; a Hash before).
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash;
let hashScratch = Buffer.allocUnsafeSlow(4096);

/** SHA-256 of `parts` end to end. */
export function sha256(...parts: Uint8Array[]): Buffer {
  if (!oneShot) {
    const hash = crypto.createHash('sha256');
    for (const part of parts) hash.update(part);
    return hash.digest();
  }
  if (parts.length === 1) return oneShot('sha256', parts[0], 'buffer');
  const length = parts.reduce((n, part) => n + part.byteLength, 0);
  if (length > hashScratch.length) hashScratch = Buffer.allocUnsafeSlow(Math.max(length, hashScratch.length * 2));
  let at = 0;
  for (const part of parts) {
    hashScratch.set(part, at);
    at += part.byteLength;
  }
  return oneShot('sha256', hashScratch.subarray(0, at), 'buffer');
}

/** The key of one file's parse. `text` as a string, or its bytes as read: the same key (a leading BOM is left out, as the decoder drops it). */
export function parseKey(kind: string, file: string, text: string | Uint8Array): Buffer {
  const bom = typeof text !== 'string' && text.length >= 3 && text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf;
  return sha256(Buffer.from(`${cacheIdentity()}\0${kind}\0${file}\0`), typeof text === 'string' ? Buffer.from(text) : bom ? text.subarray(3) : text);
}
