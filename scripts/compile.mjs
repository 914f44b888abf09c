// `npm run compile` (run by `npm ci`/`npm install` in a checkout and by `npm pack`): src/ → lib/
// as JavaScript with declarations, plus the browser modules bundled once, so an
// installed aula needs neither TypeScript nor esbuild at run time.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const lib = new URL('../lib/', import.meta.url);

// a clean lib/: a module removed from src/ must not linger in the package
rmSync(lib, { recursive: true, force: true });
// typescript's `exports` hide bin/, so find it from the package.json
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

const { bundle, BROWSER_MODULES } = await import(new URL('store/write/browser-modules.js', lib).href);
for (const [name, module] of Object.entries(BROWSER_MODULES)) writeFileSync(new URL(`store/write/${module.prebundled}`, lib), await bundle(name));
// the edge worker (`aula build --edge`), from src/ so it is byte for byte what a checkout bundles
const { bundleWorkerFrom, PREBUNDLED_WORKER } = await import(new URL('pipeline/edge-bundle.js', lib).href);
writeFileSync(new URL(`pipeline/${PREBUNDLED_WORKER}`, lib), await bundleWorkerFrom(join(root, 'src', 'adapter', 'workerd', 'worker.ts')));

// tsc keeps `.ts` in the declarations' relative imports (it rewrites only the JavaScript); a
// consumer's TypeScript wants the `.js` the files are published as.
for (const file of readdirSync(lib, { recursive: true })) {
  if (!String(file).endsWith('.d.ts')) continue;
  const path = new URL(String(file), lib);
  const text = readFileSync(path, 'utf8');
  const fixed = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1$2.js$3');
  if (fixed !== text) writeFileSync(path, fixed);
}
