// The checksum of a cache file's payload (the event state, the ledger): against damage, a file cut
// short or garbled, not against forgery: what must not collide are the keys in it, which are
// SHA-256. CRC-32 where Node has it (20.15+), a sixth of SHA-256's time; the first 4 bytes of
// SHA-256 before that. A file says which it was written with (CHECKSUM), so neither reads the other's.
import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';

const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** The checksum's name, for a cache file's header. */
export const CHECKSUM = crc32 ? 'crc32' : 'sha256/4';
/** Its length in bytes. */
export const CHECKSUM_BYTES = 4;

/** The checksum of `parts` end to end (the same as of their concatenation), CHECKSUM_BYTES long. */
export function checksum(...parts: Uint8Array[]): Buffer {
  const out = Buffer.allocUnsafe(CHECKSUM_BYTES);
  if (crc32) {
    let value = 0;
    for (const part of parts) value = crc32(part, value);
    out.writeUInt32LE(value >>> 0);
  } else {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(part);
    hash.digest().copy(out, 0, 0, CHECKSUM_BYTES);
  }
  return out;
}
