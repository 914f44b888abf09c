// The code's version for cache identities: SHA-256 of aula's sources (written to lib/code-version.json
// by scripts/compile.mjs; from the sources, hashed at first use). No format number has to be
// remembered: any code change makes older entries foreign, a cold build once, never a stale answer.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_VERSION_FILE = 'code-version.json';

const TEST = /(?:\.test\.ts|\.bench\.ts|-fixtures?\.ts)$/;

/** SHA-256 (hex) of every module under `root` ending in `ext` (tests left out), by path in order. */
export function hashModules(root: string, ext: '.js' | '.ts'): string {
  const files = readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts') && !TEST.test(f))
    .map((f) => f.split('\\').join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\n`).update(readFileSync(join(root, file))).update('\n');
  return hash.digest('hex');
}

/** This aula's code version (keys.ts asks once per process). */
export function codeVersion(): string {
  const here = import.meta.url;
  // this module is <root>/pipeline/cache/code-version.(ts|js)
  const root = fileURLToPath(new URL('../../', here));
  if (here.endsWith('.ts')) return hashModules(root, '.ts');
  try {
    const { sha256 } = JSON.parse(readFileSync(join(root, CODE_VERSION_FILE), 'utf8')) as { sha256: unknown };
    if (typeof sha256 === 'string' && /^[0-9a-f]{64}$/.test(sha256)) return sha256;
  } catch {
    // a damaged install: the modules themselves
  }
  return hashModules(root, '.js');
}
