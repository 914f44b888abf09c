// The browser autocomplete module: static-entry.ts and everything it imports as one ES module.
// An installed aula has no TypeScript sources, so `npm run compile` bundles it once into
// lib/autocomplete/static-module.js and the build reads that; a source checkout without it
// bundles with esbuild (a development dependency) on first use.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Written beside the compiled bundle.js by scripts/compile.mjs. */
export const PREBUNDLED_FILE = 'static-module.js';

let cached: Promise<string> | null = null;

/** The browser module's source. The input never changes within a process, so produce it once. */
export function bundleStaticModule(): Promise<string> {
  cached ??= prebundled().then((text) => text ?? bundle()).catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}

async function prebundled(): Promise<string | null> {
  // only the compiled module has one beside it; a .ts module always bundles from source
  if (import.meta.url.endsWith('.ts')) return null;
  try {
    return await readFile(new URL(`./${PREBUNDLED_FILE}`, import.meta.url), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Bundles from the sources next to this module (static-entry.ts, or .js when compiled). */
export async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const entry = import.meta.url.endsWith('.ts') ? './static-entry.ts' : './static-entry.js';
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // \p{…} regexes and String.prototype.normalize need ES2018+; both are in every current browser.
    target: 'es2020',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
