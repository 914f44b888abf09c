// Bundles static-entry.ts and everything it imports into one browser ES module at build time.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

let cached: Promise<string> | null = null;

/** The browser module's source. The input never changes within a process, so bundle once. */
export function bundleStaticModule(): Promise<string> {
  cached ??= bundle().catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./static-entry.ts', import.meta.url))],
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
