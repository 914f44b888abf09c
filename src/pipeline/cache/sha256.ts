// SHA-256 of a few parts end to end, for the keys and hashes made once per content file or row
// (parseKey, the rows' keys and hashes): there a Hash object's making, updates and digest cost
// several times the hashing itself (the parts are small, and the CPU hashes in hardware). The
// parts are copied into one buffer and hashed in one call (crypto.hash, Node 20.12+; a Hash where
// it is missing). The digest is the same as a Hash's over the same bytes.
import * as crypto from 'node:crypto';

const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash;

/** The parts copied end to end: grows to the largest, kept for the next call (one per thread). */
let scratch = Buffer.allocUnsafeSlow(4096);

/** SHA-256 of `parts` end to end; a string part counts as its UTF-8. */
export function sha256(...parts: (Uint8Array | string)[]): Buffer {
  if (!oneShot) {
    const hash = crypto.createHash('sha256');
    for (const part of parts) hash.update(part);
    return hash.digest();
  }
  if (parts.length === 1 && typeof parts[0] !== 'string') return oneShot('sha256', parts[0], 'buffer');
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
  if (length > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.max(length, scratch.length * 2));
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'string') at += scratch.write(part, at);
    else {
      scratch.set(part, at);
      at += part.byteLength;
    }
  }
  return oneShot('sha256', scratch.subarray(0, at), 'buffer');
}
