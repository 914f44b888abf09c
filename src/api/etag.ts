// Strong validators without hashing bodies. An answer is a pure function of (dataset, base URL,
// request): the tag is a digest of those, computed from a few hundred bytes instead of the body
// (hashing every 48 KB page cost ~16 % of the CPU of distinct page requests). The same dataset
// and request give the same tag in every process, worker and replica; another build gives
// another dataset tag, so a tag never outlives its body.
//
// Plain arithmetic, no node:crypto: the core also runs on the edge.

const DIGITS = '0123456789abcdefghijklmnopqrstuv';

/**
 * 53 bits of a string (two multiplicative 32-bit lanes, mixed), as 11 base-32 digits. Written
 * digit by digit from the two lanes: Number's toString(36) of a 53-bit value takes V8's general
 * double-to-radix path, which costs more than the hashing of a request's key.
 */
export function hash53(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // the low 32 bits of h1 and 21 of h2: six digits of 5 bits from h1, then its last 2 bits and h2's 21
  let low = h1 >>> 0;
  let out = '';
  for (let k = 0; k < 6; k++) {
    out += DIGITS[low & 31];
    low >>>= 5;
  }
  let high = low | ((h2 & 0x1fffff) << 2);
  for (let k = 0; k < 5; k++) {
    out += DIGITS[high & 31];
    high >>>= 5;
  }
  return out;
}

/** Identifies the data an API answers from: the manifest (which lists every data file's checksum) and the base URL links use. */
export function datasetTag(manifestText: string, baseUrl: string): string {
  const text = `${manifestText}\n${baseUrl}`;
  return `${hash53(text, 1)}${hash53(text, 2)}`;
}

/** The strong ETag of the answer to `requestKey` (path, query and renderer) over the dataset. */
export function etagFor(dataset: string, requestKey: string): string {
  return `"${dataset}-${hash53(requestKey)}"`;
}
