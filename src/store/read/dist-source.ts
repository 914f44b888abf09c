// Where a dist's files come from: a dist/ folder, or the build's files before they are written
// (and, on the edge, the files fetched once per isolate).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DistError } from '../format/manifest.ts';
import { FileRows, PartOpenError } from './file-rows.ts';
import { causeOf } from '../../util/failure.ts';

/** Where a dataset's files come from: a dist/ folder, or the build's files before they are written. */
export interface DistSource {
  /** how to name a file in messages */
  where(rel: string): string;
  text(rel: string): string;
  bytes(rel: string): Uint8Array;
  /** throws the same DistError as reading would, without reading */
  require(rel: string): void;
  /**
   * the very bytes the manifest's checksums were just computed from (the build's), or bytes the
   * source verified against them itself (per need): not hashed again
   */
  trusted?: boolean;
  /**
   * files are fetched as answers first need them (the edge): the loader reads each only when first
   * used, and `bytes` of one not at hand yet throws FileNeeded (per-need.ts)
   */
  perNeed?: boolean;
  /**
   * a file read only through Sections (store/read/sections.ts), which may come in parts (the
   * edge's: the sections an answer reads, fetched and checked when first read); without it, `bytes`
   */
  sectioned?(rel: string): Uint8Array;
  /** the event rows and their offsets were made together in this process (aula dev's, in memory): their fit is not checked again */
  rowsMadeHere?: boolean;
  /** opens files to be read by offset as one (a dist/ folder's event parts): the rows stay out of memory */
  open?(rels: readonly string[]): FileRows;
}

function missing(where: string, e: unknown): DistError {
  const code = (e as NodeJS.ErrnoException).code;
  // (node's message repeats the path, code first: `ENOTDIR: not a directory, open '…'`)
  return new DistError(`${where}: ${code === 'ENOENT' ? 'missing' : causeOf(e)}; rebuild with \`aula build\``);
}

export function directorySource(dir: string): DistSource {
  const where = (rel: string) => join(dir, rel);
  const bytes = (rel: string) => {
    try {
      return readFileSync(where(rel));
    } catch (e) {
      throw missing(where(rel), e);
    }
  };
  const require = (rel: string) => {
    try {
      statSync(where(rel));
    } catch (e) {
      throw missing(where(rel), e);
    }
  };
  const open = (rels: readonly string[]) => {
    try {
      return new FileRows(rels.map(where));
    } catch (e) {
      if (!(e instanceof PartOpenError)) throw e;
      throw missing(where(rels[e.part]), e.cause);
    }
  };
  return { where, bytes, require, open, text: (rel) => bytes(rel).toString('utf8') };
}

/**
 * `files`: by path, or a getter (undefined: no such file); `trusted`: the files are the ones the
 * manifest's checksums were computed from (the build's); else they are verified.
 */
export function memorySource(files: ReadonlyMap<string, string | Uint8Array> | ((rel: string) => string | Uint8Array | undefined), label: string, trusted = true): DistSource {
  const where = (rel: string) => `${label}/${rel}`;
  const lookUp = typeof files === 'function' ? files : (rel: string) => files.get(rel);
  const get = (rel: string) => {
    const content = lookUp(rel);
    if (content === undefined) throw missing(where(rel), Object.assign(new Error('missing'), { code: 'ENOENT' }));
    return content;
  };
  return {
    where,
    trusted,
    require: (rel) => void get(rel),
    text: (rel) => {
      const c = get(rel);
      return typeof c === 'string' ? c : Buffer.from(c).toString('utf8');
    },
    bytes: (rel) => {
      const c = get(rel);
      return typeof c === 'string' ? Buffer.from(c) : c;
    },
  };
}

/** A file that is read only through Sections: in parts where the source reads it so. */
export function sectionedBytes(source: DistSource, rel: string): Uint8Array {
  return source.sectioned ? source.sectioned(rel) : source.bytes(rel);
}

export function corrupt(source: DistSource, rel: string, problem: string): DistError {
  return new DistError(`${source.where(rel)}: ${problem}; rebuild with \`aula build\``);
}
