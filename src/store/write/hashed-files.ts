// Content-hashed twins of the autocomplete's browser files: `autocomplete.<hash>.js`, which loads
// `index.<hash>.json` beside it. A name that changes whenever the bytes do can be cached for a
// year (`immutable`) by browsers and CDNs; the plain names stay for pages that import them as
// before, under the short policy of every other answer.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../format/dist-paths.ts';

/** 12 hex digits of the SHA-256: 48 bits, no collision between the few builds a site keeps. */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 12);
}

export interface HashedFiles {
  /** name (relative to dist/autocomplete/) → content */
  files: Map<string, string>;
  /** a hashed name whose bytes are those of a plain file: its compressed twins are the same too */
  copies: Map<string, string>;
}

/** The hashed twins of the module and index (names relative to dist/autocomplete/). */
export function hashedAutocompleteFiles(index: string, module: string): HashedFiles {
  const indexName = `index.${contentHash(index)}.json`;
  // the bundled module names its index once, as the default URL of createAutocompleteFromUrl
  const reference = `"./${AUTOCOMPLETE_INDEX_FILE}"`;
  const at = module.indexOf(reference);
  if (at === -1 || module.indexOf(reference, at + 1) !== -1) {
    throw new Error(`${AUTOCOMPLETE_MODULE_FILE}: expected exactly one ${reference} in the bundled module`);
  }
  const hashedModule = `${module.slice(0, at)}"./${indexName}"${module.slice(at + reference.length)}`;
  return {
    files: new Map([
      [`autocomplete.${contentHash(hashedModule)}.js`, hashedModule],
      [indexName, index],
    ]),
    copies: new Map([[indexName, AUTOCOMPLETE_INDEX_FILE]]),
  };
}

/** Adds the compressed twins (`.gz`, `.br`) of each copy under its hashed name: the same bytes, compressed once. */
/**
 * Gives each hashed copy the `.gz`/`.br` of the file it copies, from the files already written
 * under `root` (compressed by this build, or carried over from the previous one).
 */
export function copyTwins(root: string, copies: ReadonlyMap<string, string>, dir: string): void {
  for (const [name, same] of copies) {
    for (const ext of ['.gz', '.br']) {
      const from = join(root, dir, `${same}${ext}`);
      if (existsSync(from)) copyFileSync(from, join(root, dir, `${name}${ext}`));
    }
  }
}
