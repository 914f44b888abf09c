// `npm pack` and `npm publish` (prepack, postpack): the package.json packed without `prepare`.
//
// prepare compiles lib/ where there is none: after `npm ci` in a checkout, and for a git
// dependency (npm runs only prepare there). A packed aula ships lib/ compiled, and npm runs no
// prepare when it installs a tarball; yet npm 11 names every package that declares one on each
// install ("install scripts not yet covered by allowScripts"), telling a site's developers that
// aula runs code at install time, which it does not.
//
//   strip:   keeps package.json's bytes in .package.json.packing and writes it without prepare
//   restore: puts those bytes back and removes the copy
// A strip that finds the copy (a pack stopped before its postpack) restores it first, so the
// checkout's package.json is never lost; the copy is not in `files`, so it is never packed.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const manifest = fileURLToPath(new URL('../package.json', import.meta.url));
const kept = fileURLToPath(new URL('../.package.json.packing', import.meta.url));

function restore() {
  if (existsSync(kept)) renameSync(kept, manifest);
}

const step = process.argv[2];
if (step === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  writeFileSync(kept, text);
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (step === 'restore') {
  restore();
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(1);
}
