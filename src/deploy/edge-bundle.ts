// `aula build --edge`: the API as one ES module for Cloudflare Workers / workerd, written to
// dist/edge/ with example configs and the block sums of the files an isolate reads in parts. The
// worker reads the data files from dist/ through its ASSETS binding, so the bundle holds code only
// and the same dist/ serves both.
import type { Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockCount, BLOCK_BYTES, BLOCK_SUM_BYTES, blockSumsFile, sha256Hex, type Manifest } from '../store/format/manifest.ts';

export const EDGE_DIR = 'edge';
export const EDGE_WORKER = `${EDGE_DIR}/worker.js`;

/** The date the worker was tested against in workerd; newer runtimes keep its behaviour. */
export const COMPATIBILITY_DATE = '2025-09-01';
/** nodejs_compat provides the global `Buffer` the core joins its answers with; nothing imports node: modules. */
export const COMPATIBILITY_FLAGS = ['nodejs_compat'];

/**
 * node: modules are imported by modules the worker shares with the server (dataset.ts reads a dist
 * folder with node:fs) but only from functions the worker never calls. Declaring them free of side
 * effects lets esbuild drop those unused imports; a node: import the worker does use stays in the
 * bundle, where the edge test refuses it.
 */
const nodeBuiltinsUnusedDrop: Plugin = {
  name: 'node-builtins-unused-drop',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

/**
 * Libraries whose evaluation an isolate's first answer would pay for though most answers never
 * use them: `entities` builds its table of HTML entities when its module is evaluated (a `search`
 * reads it), re2js defines its several hundred classes and tables (a regex filter). A module
 * evaluated at the start of an isolate costs its first answer: workerd evaluates the bundle while
 * the first request waits. Each is bundled behind a facade with the names the worker uses, which
 * `require`s the library on first use: esbuild evaluates a module required from ESM only when the
 * `require` runs. A name the worker imports that the facade does not give fails the bundle.
 */
const LAZY_LIBRARIES: Record<string, string> = {
  're2js': `
    let real;
    const lib = () => (real ??= require('re2js'));
    export const RE2JS = {
      get DOTALL() { return lib().RE2JS.DOTALL; },
      get CASE_INSENSITIVE() { return lib().RE2JS.CASE_INSENSITIVE; },
      compile: (pattern, flags) => lib().RE2JS.compile(pattern, flags),
    };
    export const RE2JSSyntaxException = { [Symbol.hasInstance]: (e) => e instanceof lib().RE2JSSyntaxException };
  `,
  'entities/decode': `
    let real;
    export const decodeHTML = (text, mode) => (real ??= require('entities/decode')).decodeHTML(text, mode);
  `,
};

const lazyLibraries: Plugin = {
  name: 'lazy-libraries',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(LAZY_LIBRARIES).map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);
    // the facade's own require of the library resolves as usual
    b.onResolve({ filter }, (args) => (args.namespace === 'lazy' ? undefined : { path: args.path, namespace: 'lazy', pluginData: args.resolveDir }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({ contents: LAZY_LIBRARIES[args.path], loader: 'js', resolveDir: args.pluginData as string }));
  },
};

/**
 * An installed aula has no TypeScript sources (and no esbuild), so `npm run compile` bundles the
 * worker from src/ once into this file beside the compiled edge-bundle.js; a checkout bundles on
 * first use. Both bundle the same sources with the same options, so the bytes are the same.
 */
export const PREBUNDLED_WORKER = 'edge-worker.js';

/** Bundles the worker module from its entry point (worker.ts in src/). */
export async function bundleWorkerFrom(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins: [nodeBuiltinsUnusedDrop, lazyLibraries],
  });
  return result.outputFiles[0].text;
}

async function prebundledWorker(): Promise<string> {
  // only the compiled module has it beside it; a .ts module always bundles from source
  if (import.meta.url.endsWith('.ts')) return bundleWorkerFrom(fileURLToPath(new URL('../adapter/workerd/worker.ts', import.meta.url)));
  return readFile(new URL(`./${PREBUNDLED_WORKER}`, import.meta.url), 'utf8');
}

let cached: Promise<string> | null = null;

/** The worker module's source; the input never changes within a process, so bundle once. */
export function bundleEdgeWorker(): Promise<string> {
  cached ??= prebundledWorker().catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}

/**
 * The site's zone as a config value (AULA_CHECKED_ZONE): the build checked it, so an isolate
 * takes a manifest naming it without asking Intl for every zone. JSON's quoting is a TOML basic
 * string's and a Cap'n Proto text's for every name a zone can have.
 */
const zoneValue = (manifest: Manifest) => JSON.stringify(manifest.site.timezone);

function wranglerToml(manifest: Manifest): string {
  return `# Cloudflare Workers: deploy dist/ with the worker in front of every path.
# Run from the folder that holds dist/:  npx wrangler deploy -c dist/edge/wrangler.toml
name = "aula-api"
main = "worker.js"
compatibility_date = "${COMPATIBILITY_DATE}"
compatibility_flags = ${JSON.stringify(COMPATIBILITY_FLAGS)}

[assets]
directory = ".."
binding = "ASSETS"
# the worker answers every request, as \`aula serve\` does; it reads dist/data/ through ASSETS
run_worker_first = true

[vars]
# data files above this many bytes get a 503 instead of running the isolate out of memory
AULA_MAX_DATA_BYTES = "40000000"
# as \`aula serve --base-url\` and \`--cache-control\`:
# AULA_BASE_URL = "https://api.example.org"
# AULA_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400"
# the site's time zone, which the build checked (each isolate would otherwise ask Intl for every zone)
AULA_CHECKED_ZONE = ${zoneValue(manifest)}
`;
}

function workerdCapnp(manifest: Manifest): string {
  return `# workerd: serve the API from dist/ on 127.0.0.1:8787.
# Run from the folder that holds dist/:  npx workerd serve dist/edge/workerd.capnp
# (another dist: --directory-path assets=/path/to/dist; another port: --socket-addr http=127.0.0.1:PORT)
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "api", worker = .api),
    (name = "assets", disk = (path = "dist", writable = false)),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "api")],
);

const api :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = ${JSON.stringify(COMPATIBILITY_FLAGS)},
  bindings = [(name = "ASSETS", service = "assets"), (name = "AULA_CHECKED_ZONE", text = ${zoneValue(manifest)})],
);
`;
}

/**
 * The block sums of every file `manifest` lists them for (blockSumsFile), made from the files in
 * `dist` as they will be served: only an isolate reads them (the node server reads whole files and
 * checks each whole), so a build without --edge makes none. A file whose sums are not the ones its
 * digest names changed after it was digested, and the build fails.
 */
export function blockSumFiles(dist: string, manifest: Manifest): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  // one block's buffer for every file: the files are hundreds of megabytes, read once
  const block = Buffer.allocUnsafe(BLOCK_BYTES);
  for (const [rel, digest] of Object.entries(manifest.files)) {
    if (digest.blocks === undefined) continue;
    const path = join(dist, rel);
    const sums = new Uint8Array(blockCount(digest.bytes) * BLOCK_SUM_BYTES);
    const fd = openSync(path, 'r');
    try {
      for (let b = 0, at = 0; at < digest.bytes; b++, at += BLOCK_BYTES) {
        const length = Math.min(BLOCK_BYTES, digest.bytes - at);
        if (readSync(fd, block, 0, length, at) !== length) throw new Error(`${rel} changed while the build ran; build again`);
        sums.set(createHash('sha256').update(block.subarray(0, length)).digest(), b * BLOCK_SUM_BYTES);
      }
    } finally {
      closeSync(fd);
    }
    if (sha256Hex(sums) !== digest.blocks) throw new Error(`${rel} changed while the build ran; build again`);
    files.set(blockSumsFile(digest as { blocks: string }), sums);
  }
  return files;
}

/** dist/edge/: the bundled worker, the two example configs (naming the checked zone) and the block sums of the files in `dist` (blockSumFiles), keyed by path relative to dist/. */
export async function edgeFiles(dist: string, manifest: Manifest): Promise<Map<string, string | Uint8Array>> {
  return new Map<string, string | Uint8Array>([
    [EDGE_WORKER, await bundleEdgeWorker()],
    [`${EDGE_DIR}/wrangler.toml`, wranglerToml(manifest)],
    [`${EDGE_DIR}/workerd.capnp`, workerdCapnp(manifest)],
    ...blockSumFiles(dist, manifest),
  ]);
}
