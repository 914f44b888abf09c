// Finding and reading the files of a content folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import type { Problem } from './problems.ts';

export interface ContentFiles {
  site: string[];
  pages: string[];
  categories: string[];
  media: string[];
  events: string[];
  directory: string[];
}

const DATA = '{yaml,yml,json}';
const PATTERNS = [
  `site.${DATA}`,
  `pages.${DATA}`,
  `categories.${DATA}`,
  `media.${DATA}`,
  `media/**/*.${DATA}`,
  `events/**/*.{md,${DATA}}`,
  `directory/**/*.${DATA}`,
];

/** Content files by kind, as sorted paths relative to `dir` with forward slashes. */
export async function findContentFiles(dir: string): Promise<ContentFiles> {
  const found: ContentFiles = { site: [], pages: [], categories: [], media: [], events: [], directory: [] };
  // Sorted, because directory listing order differs between file systems and builds must not.
  const paths = (await fg(PATTERNS, { cwd: dir, onlyFiles: true })).sort();
  for (const path of paths) {
    const slash = path.indexOf('/');
    const head = slash < 0 ? path.slice(0, path.indexOf('.')) : path.slice(0, slash);
    found[head as keyof ContentFiles].push(path);
  }
  return found;
}

export type FileText = { ok: true; text: string } | { ok: false; problem: Problem };

// fatal: invalid UTF-8 is an error rather than silently becoming U+FFFD; a BOM is dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Synchronous on purpose: for ~100,000 small files readFileSync measured 0.5–0.9 s against
 * 5–6 s for fs.promises.readFile at any concurrency (each read is several thread-pool round
 * trips), and the parsing that follows is on this thread anyway.
 */
export function readContentFile(dir: string, file: string): FileText {
  const fail = (message: string): FileText => ({ ok: false, problem: { file, line: 1, column: 1, key: '', message } });
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, file));
  } catch (e) {
    return fail(`cannot read the file: ${(e as Error).message}`);
  }
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return fail('the file is not valid UTF-8');
  }
}
