// The import rules of src/: which layer may import which. The data flows one way,
//
//   content → model → render → store/write → dist/ → store/read → query → api → server
//
// and the folders say so. A module may import its own layer and the layers listed for it, nothing
// else; the serve path (store/read, query, api, server and what they stand on) never loads build
// code, so `aula serve` starts without markdown-it, esbuild, the content loader or the writers.
// Enforced by imports.test.ts (static graph) and serve-graph.test.ts (what a real server loads).

/** Layers by path prefix under src/ (longest prefix wins). */
export const LAYERS: Record<string, string> = {
  'model/': 'model',
  'time/': 'model',
  'defaults.ts': 'model',
  'version.ts': 'model',
  'util/': 'model',
  'content/': 'content',
  'render/': 'render',
  'store/format/': 'store/format',
  'store/write/': 'store/write',
  'store/read/': 'store/read',
  'query/': 'query',
  'api/': 'api',
  'server/': 'server',
  'adapter/': 'adapter',
  'deploy/': 'deploy',
  'docs/': 'docs',
  'pipeline/': 'pipeline',
  'dev/': 'dev',
  'gen/': 'gen',
  'cli/': 'cli',
  'index.ts': 'package',
};

const SERVE = ['model', 'store/format', 'store/read', 'query', 'api', 'server'];

/** What each layer may import besides itself. */
export const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  content: ['model'],
  render: ['model'],
  'store/format': ['model'],
  'store/write': ['model', 'render', 'store/format'],
  'store/read': ['model', 'store/format'],
  query: ['model', 'store/format', 'store/read'],
  api: ['model', 'store/format', 'store/read', 'query'],
  server: SERVE,
  /** other runtimes (workerd): the same footing as the node server */
  adapter: SERVE,
  deploy: [...SERVE],
  docs: ['model', 'content', 'api'],
  pipeline: [...SERVE, 'content', 'render', 'store/write', 'deploy', 'docs'],
  dev: [...SERVE, 'content', 'render', 'store/write', 'deploy', 'docs', 'pipeline'],
  gen: ['model'],
  cli: Object.values(LAYERS).filter((l) => l !== 'cli' && l !== 'package'),
  package: Object.values(LAYERS).filter((l) => l !== 'package' && l !== 'gen'),
};

/** The layers `aula serve` (and the edge worker) run on. */
export const SERVE_LAYERS: readonly string[] = [...SERVE, 'adapter'];

/** Packages that are build-time only: the serve layers must not import them. */
// (node:worker_threads is not one: the server checks the event rows on a thread at start, in
// src/server only; the edge bundle has no node: modules and fails to build with one)
export const BUILD_PACKAGES: readonly string[] = ['esbuild', 'markdown-it', 'fast-glob', 'yaml', 'minisearch'];

/** Test support beside the modules (fixtures, benches): not part of the layers. */
export const NOT_A_MODULE = /(?:\.test\.ts|\.bench\.ts|\/test-[^/]*\.ts|-fixtures?\.ts)$/;
