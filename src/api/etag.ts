// Strong validators without hashing bodies. An answer is a pure function of (dataset, base URL,
// request): the tag is a digest of those, computed from a few hundred bytes instead of the body
// (hashing every 48 KB page cost ~16 % of the CPU of distinct page requests). The same dataset
// and request give the same tag in every process, worker and replica; another build gives
// another dataset tag, so a tag never outlives its body.
//
// Plain arithmetic, no node:crypto: the core also runs on the edge.

/** 53 bits of a string (two multiplicative 32-bit lanes, mixed), as 9 base-36 digits or so. */
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
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
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
