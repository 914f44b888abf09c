// Twins of unchanged files are taken from the previous dist rather than compressed again, only
// when a clean build would write the same bytes: same aula, zlib/brotli, page bytes and levels
// (which depend on the build's volume, so the manifest records it).
import { mkdirSync, unlinkSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { compressionLevels, LEVEL_POLICY } from '../../deploy/precompress.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { linkInto } from './carry-over.ts';
import { readCacheFile } from '../cache/cache-file.ts';

/** What wrote the twins: compressors' output differs between versions. */
export const COMPRESSOR = `zlib ${process.versions.zlib}, brotli ${process.versions.brotli ?? '?'}, ${LEVEL_POLICY}`;

/** Links the previous twins of `rel` when they are what compressing `content` gives (true); null when none can be reused. */
export function compressedReuse(
  previousDist: string,
  previous: Manifest | null,
  staging: string,
  volume: number,
): ((rel: string, content: string | Uint8Array) => boolean) | null {
  const then = previous?.precompressed;
  if (!previous || previous.version !== AULA_VERSION || typeof then !== 'object' || then === null) return null;
  if (then.compressor !== COMPRESSOR || !Number.isSafeInteger(then.volume)) return null;
  return (rel, content) => {
    // compressionPool's measure, so the levels agree with it
    const size = typeof content === 'string' ? content.length : content.byteLength;
    const now = compressionLevels(size, volume);
    const before = compressionLevels(size, then.volume);
    if (now.gzip !== before.gzip || now.brotli !== before.brotli) return false;
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    if (readCacheFile(join(previousDist, rel), bytes.byteLength)?.equals(bytes) !== true) return false;
    // decoded, not trusted: a damaged or hand-edited twin is compressed anew
    if (!decodesTo(join(previousDist, `${rel}.gz`), gunzipSync, bytes) || !decodesTo(join(previousDist, `${rel}.br`), brotliDecompressSync, bytes)) return false;
    mkdirSync(dirname(join(staging, rel)), { recursive: true });
    if (!linkInto(join(previousDist, `${rel}.gz`), join(staging, `${rel}.gz`))) return false;
    if (!linkInto(join(previousDist, `${rel}.br`), join(staging, `${rel}.br`))) {
      // the pool writes both: never through a link into the previous dist
      unlinkSync(join(staging, `${rel}.gz`));
      return false;
    }
    return true;
  };
}

function decodesTo(path: string, decode: (b: Buffer) => Buffer, expected: Uint8Array): boolean {
  // gzip and brotli add at most a few bytes per block to what does not compress
  const packed = readCacheFile(path, expected.byteLength + (expected.byteLength >> 6) + 1024);
  if (packed === null) return false;
  try {
    return decode(packed).equals(expected);
  } catch {
    return false;
  }
}
