// `npm run compile` (run by `npm ci`/`npm install` in a checkout and by `npm pack`): src/ → lib/
// as JavaScript with declarations, plus the browser modules bundled once, so an
// installed aula needs neither TypeScript nor esbuild at run time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, lstatSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Built beside lib/ and moved into it file by file at the end: a clean lib/ (a module removed from
// src/ must not linger in the package), yet never a missing or half-written file. lib/ was removed
// first and rewritten over a second or more, and every aula running from this checkout meanwhile (a
// test, `aula dev`, a concurrent vitest's CLI runs) failed with "Cannot find module". Swapped whole
// by two renames, it was missing between them: microseconds, but a test saw it under load (Node has
// no atomic exchange of two folders).
const built = `.lib-build-${process.pid}`;
const lib = new URL(`../${built}/`, import.meta.url);
rmSync(lib, { recursive: true, force: true });
// typescript's `exports` hide bin/, so find it from the package.json
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', built], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
  rmSync(lib, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}

// tsc keeps `.ts` in the declarations' relative imports (it rewrites only the JavaScript); a
// consumer's TypeScript wants the `.js` the files are published as.
for (const file of readdirSync(lib, { recursive: true })) {
  if (!String(file).endsWith('.d.ts')) continue;
  const path = new URL(String(file), lib);
  const text = readFileSync(path, 'utf8');
  const fixed = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1$2.js$3');
  if (fixed !== text) writeFileSync(path, fixed);
}

// The JSON Schemas of the content files, as a build writes them to dist/schemas/: shipped, so the
// starter files `aula init` writes can name them (node_modules/aula/lib/schemas/) for an editor
// before anything was built.
const { contentSchemas } = await import(new URL('docs/content-schemas.js', lib).href);
mkdirSync(new URL('schemas/', lib));
for (const [name, schema] of Object.entries(contentSchemas())) writeFileSync(new URL(`schemas/${name}`, lib), `${JSON.stringify(schema, null, 2)}\n`);

// Into place: each file renamed over its name (a file unchanged is left as it is: a compile of the
// same sources changes nothing), then what lib/ has and the build has not is removed, but for the
// bundles written below over their names.
const final = join(root, 'lib');
const builtDir = fileURLToPath(lib);
/**
 * What is under `dir`, relative to it: its folders, and everything else (files, and links, which
 * are not followed: readdirSync's `recursive` would follow a linked folder, and what is removed
 * below would then be outside lib/).
 */
function entriesOf(dir, rel = '', found = { folders: [], files: [] }) {
  for (const e of readdirSync(rel === '' ? dir : join(dir, rel), { withFileTypes: true })) {
    const at = rel === '' ? e.name : join(rel, e.name);
    if (e.isDirectory()) {
      found.folders.push(at);
      entriesOf(dir, at, found);
    } else {
      found.files.push(at);
    }
  }
  return found;
}
if (!existsSync(final)) {
  renameSync(builtDir, final);
} else {
  const fresh = new Set(entriesOf(builtDir).files);
  for (const rel of fresh) {
    const from = join(builtDir, rel);
    const to = join(final, rel);
    if (existsSync(to) && lstatSync(to).isDirectory()) rmSync(to, { recursive: true });
    else if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue;
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  }
  // (from lib/, where they now are: a module that changed was moved out of the build folder)
  const { BROWSER_MODULES } = await import(pathToFileURL(join(final, 'store', 'write', 'browser-modules.js')).href);
  const { PREBUNDLED_WORKER } = await import(pathToFileURL(join(final, 'deploy', 'edge-bundle.js')).href);
  const bundles = [...Object.values(BROWSER_MODULES).map((m) => join('store', 'write', m.prebundled)), join('deploy', PREBUNDLED_WORKER), 'code-version.json'];
  const { folders, files } = entriesOf(final);
  for (const rel of files) if (!fresh.has(rel) && !bundles.includes(rel)) unlinkSync(join(final, rel));
  // folders left empty, deepest first
  for (const rel of folders.sort((a, b) => b.length - a.length)) if (readdirSync(join(final, rel)).length === 0) rmdirSync(join(final, rel));
  rmSync(builtDir, { recursive: true, force: true });
}

// Bundled from lib/ once it is in place: esbuild names each input's path in a comment, and a
// folder named after this process would make two compiles (and the modules in every dist)
// differ. Each file is written beside its name and renamed: a build reading it meanwhile gets
// all of it, or none (and then bundles from source).
const placed = new URL('../lib/', import.meta.url);
const writeWhole = (url, text) => {
  const path = fileURLToPath(url);
  writeFileSync(`${path}.${process.pid}.tmp`, text);
  renameSync(`${path}.${process.pid}.tmp`, path);
};
const { bundle, BROWSER_MODULES } = await import(new URL('store/write/browser-modules.js', placed).href);
for (const [name, module] of Object.entries(BROWSER_MODULES)) writeWhole(new URL(`store/write/${module.prebundled}`, placed), await bundle(name));
// the edge worker (`aula build --edge`), from src/ so it is byte for byte what a checkout bundles
const { bundleWorkerFrom, PREBUNDLED_WORKER } = await import(new URL('deploy/edge-bundle.js', placed).href);
writeWhole(new URL(`deploy/${PREBUNDLED_WORKER}`, placed), await bundleWorkerFrom(join(root, 'src', 'adapter', 'workerd', 'worker.ts')));
// the code version every build cache entry is made under (pipeline/cache/code-version.ts): of the
// sources the modules were compiled from, as a run from those sources hashes them
const { hashModules, CODE_VERSION_FILE } = await import(new URL('pipeline/cache/code-version.js', placed).href);
writeWhole(new URL(CODE_VERSION_FILE, placed), `${JSON.stringify({ sha256: hashModules(join(root, 'src'), '.ts') })}\n`);
