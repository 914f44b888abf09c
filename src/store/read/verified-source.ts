// A dist/ read only through the sizes and checksums its manifest lists: a file that differs
// from what the build wrote (damaged, half-copied, from another build) is refused by name
// before any of it is served.
//
// The hash function is the caller's: the server passes node:crypto's, the edge worker (which has
// no node: modules) one answering from digests it computed ahead with WebCrypto, which is async.
import type { DistSource } from './dist-source.ts';
import { DistError, type Manifest } from '../format/manifest.ts';

/** Lower-case hex SHA-256 of the bytes. */
export type Sha256 = (bytes: Uint8Array) => string;
/** Lower-case hex CRC-32 of the bytes (FileDigest.crc32): given by a caller reading its own disk, which checks a file by it where the manifest lists one. */
export type Crc32 = (bytes: Uint8Array) => string;

/**
 * A file whose size or SHA-256 differs from the manifest's. Besides damage this is what a dist
 * caught half-deployed looks like (new manifest, old data), so a caller may retry it later.
 */
export class ChecksumMismatch extends DistError {}

function refused(source: DistSource, rel: string, problem: string, Kind = DistError): DistError {
  return new Kind(`${source.where(rel)}: ${problem}; rebuild with \`aula build\``);
}

function expected(source: DistSource, manifest: Manifest, rel: string) {
  const digest = Object.hasOwn(manifest.files, rel) ? manifest.files[rel] : undefined;
  if (!digest) throw refused(source, rel, 'is not listed in manifest.json');
  return digest;
}

/** Throws a DistError naming the file unless `content` is what the manifest lists for `rel`. */
export function checkDigest(source: DistSource, manifest: Manifest, rel: string, content: Uint8Array, sha256: Sha256, crc32?: Crc32): void {
  const want = expected(source, manifest, rel);
  if (content.byteLength !== want.bytes) throw refused(source, rel, `is ${content.byteLength} bytes, manifest.json says ${want.bytes}`, ChecksumMismatch);
  if (crc32 !== undefined && want.crc32 !== undefined) {
    if (crc32(content) !== want.crc32) throw refused(source, rel, 'does not match its CRC-32 in manifest.json', ChecksumMismatch);
  } else if (sha256(content) !== want.sha256) throw refused(source, rel, 'does not match its SHA-256 in manifest.json', ChecksumMismatch);
}

export function verifiedSource(source: DistSource, manifest: Manifest, sha256: Sha256, crc32?: Crc32): DistSource {
  const bytes = (rel: string) => {
    const content = source.bytes(rel);
    checkDigest(source, manifest, rel, content, sha256, crc32);
    return content;
  };
  return {
    where: source.where,
    bytes,
    text: (rel) => Buffer.from(bytes(rel)).toString('utf8'),
    // a deferred file is verified when it is read (see datasetFrom)
    require(rel) {
      expected(source, manifest, rel);
      source.require(rel);
    },
  };
}
