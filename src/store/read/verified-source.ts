// A dist/ read only through the sizes and SHA-256 sums its manifest lists: a file that differs
// from what the build wrote (damaged, half-copied, from another build) is refused by name
// before any of it is served.
import type { DistSource } from './dist-source.ts';
import { digestOf, DistError, type Manifest } from '../format/manifest.ts';

function refused(source: DistSource, rel: string, problem: string): DistError {
  return new DistError(`${source.where(rel)}: ${problem}; rebuild with \`aula build\``);
}

function expected(source: DistSource, manifest: Manifest, rel: string) {
  const digest = Object.hasOwn(manifest.files, rel) ? manifest.files[rel] : undefined;
  if (!digest) throw refused(source, rel, 'is not listed in manifest.json');
  return digest;
}

/** Throws a DistError naming the file unless `content` is what the manifest lists for `rel`. */
export function checkDigest(source: DistSource, manifest: Manifest, rel: string, content: Uint8Array): void {
  const want = expected(source, manifest, rel);
  if (content.byteLength !== want.bytes) throw refused(source, rel, `is ${content.byteLength} bytes, manifest.json says ${want.bytes}`);
  if (digestOf(content).sha256 !== want.sha256) throw refused(source, rel, 'does not match its SHA-256 in manifest.json');
}

export function verifiedSource(source: DistSource, manifest: Manifest): DistSource {
  const bytes = (rel: string) => {
    const content = source.bytes(rel);
    checkDigest(source, manifest, rel, content);
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
