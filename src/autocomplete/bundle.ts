// Bundles a browser entry point and everything it imports into one ES module at build time:
// static-entry.ts → autocomplete.js, minisearch/options-entry.ts → minisearch-options.js.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const cached = new Map<string, Promise<string>>();

export interface BundleOptions {
  /** default true */
  minify?: boolean;
  /** a comment put on top, e.g. how to use the module */
  banner?: string;
}

/**
 * The browser module's source. The inputs never change within a process, so each entry is
 * bundled once (with the options of its first call).
 */
export function bundleBrowserModule(entry: URL, options: BundleOptions = {}): Promise<string> {
  let source = cached.get(entry.href);
  if (source === undefined) {
    source = bundle(entry, options).catch((err: unknown) => {
      cached.delete(entry.href);
      throw err;
    });
    cached.set(entry.href, source);
  }
  return source;
}

/** dist/autocomplete/autocomplete.js */
export function bundleStaticModule(): Promise<string> {
  return bundleBrowserModule(new URL('./static-entry.ts', import.meta.url));
}

async function bundle(entry: URL, { minify = true, banner }: BundleOptions): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // \p{…} regexes and String.prototype.normalize need ES2018+; both are in every current browser.
    target: 'es2020',
    minify,
    charset: 'utf8',
    legalComments: 'none',
    ...(banner === undefined ? {} : { banner: { js: banner } }),
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
