// Where the site's aula comes from: the dependency package.json lists (never changed), the one
// init may add (only one the running aula can vouch for), and what to tell the user when CI could
// not install it.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printable } from '../../util/printable.ts';
import { AULA_VERSION } from '../../version.ts';
import { isInside, realOr } from './paths.ts';

/** The folder nearest the site (itself, or one above it) whose node_modules holds aula: where node finds aula from the site. */
export function installedFor(site: string): string | null {
  for (let dir = site; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', 'aula', 'package.json'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The fields of package.json that may list aula. */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** What package.json gives as aula's spec, when it lists aula. */
export function aulaSpec(pkg: Record<string, unknown>): string | undefined {
  for (const field of DEPENDENCY_FIELDS) {
    const deps = pkg[field];
    if (typeof deps === 'object' && deps !== null && typeof (deps as Record<string, unknown>).aula === 'string') return (deps as Record<string, string>).aula;
  }
  return undefined;
}

/** The absolute path a spec names when it is a local path (`file:…`, `./…`, `/…`, `~/…`), relative to `from`; otherwise null. */
function localPath(spec: string, from: string): string | null {
  const local = spec.startsWith('file:') ? spec.slice(5) : /^(?:\.{1,2}\/|\/|~\/)/.test(spec) ? spec : null;
  if (local === null) return null;
  try {
    return local.startsWith('//') ? fileURLToPath(`file:${local}`) : resolve(from, local.replace(/^~(?=\/)/, process.env.HOME ?? '~'));
  } catch {
    return null;
  }
}

/** The folder of the aula package this code belongs to (lib/cli/init/ or src/cli/init/ in it). */
export const OWN_PACKAGE = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The spec to add to a package.json that does not list aula: the one the running aula was
 * installed with, when that can be known — aula runs from `<folder>/node_modules/aula`, outside
 * the site and the folders above it, and that folder's package.json lists aula (npx keeps such a
 * folder for `npx <tarball, git URL or version> init`, its package.json naming what it was given).
 * A `file:` path is made relative to the site. Nothing is guessed: a version range (`^0.1.0`)
 * installs from the npm registry only, where aula may not be, or a package of that name may be
 * someone else's.
 */
export function installedSpec(site: string, aulaPackage: string): string | null {
  const pkgDir = realOr(aulaPackage);
  if (basename(dirname(pkgDir)) !== 'node_modules') return null;
  const holder = dirname(dirname(pkgDir));
  if (isInside(holder, realOr(site))) return null;
  let spec: string | undefined;
  try {
    spec = aulaSpec(JSON.parse(readFileSync(join(holder, 'package.json'), 'utf8')));
  } catch {
    return null;
  }
  if (spec === undefined) return null;
  const path = localPath(spec, holder);
  if (path === null) return spec;
  const rel = relative(realOr(site), path).split(sep).join('/');
  return `file:${rel === '' ? '.' : rel}`;
}

/**
 * A warning when package.json takes aula from a `file:` path outside the repository: the CI
 * checkout has only the repository, so the workflow's `npm ci` would fail there.
 */
function localDependencyWarning(site: string, repository: string | null, spec: string): string | null {
  const path = localPath(spec, site);
  if (path === null) return null;
  // no repository yet: the site folder is where `git init` will make it
  const top = repository ?? site;
  if (isInside(realOr(top), realOr(path))) return null;
  const inRepo = top === site ? 'the site folder' : `the repository (${printable(relative(process.cwd(), top) || '.')})`;
  const name = basename(path);
  return `package.json takes aula from ${JSON.stringify(spec)}, outside ${inRepo}: the CI workflow's \`npm ci\` will not find it there. Copy the tarball into the site, run \`npm install ./${name}\` and commit it with package-lock.json, or publish it where CI can fetch it`;
}

/**
 * What to tell the user about aula once init is done, with `listed` the spec package.json then
 * gives (undefined: none): warnings for what the CI workflow could not install, and the commands
 * to run next. `dir` is the site folder as named, `site` its real path (or `dir`, not made yet).
 */
export function dependencyAdvice(dir: string, site: string, repository: string | null, listed: string | undefined): { warnings: string[]; next: string[] } {
  const warnings: string[] = [];
  const tarball = `aula-${AULA_VERSION}.tgz`;
  if (listed === undefined) {
    warnings.push(`package.json does not list aula, so the CI workflow's \`npm ci\` will not install it: copy the aula tarball into the site, run \`npm install ./${tarball}\` and commit both with package-lock.json`);
  } else {
    const warning = localDependencyWarning(site, repository, listed);
    if (warning !== null) warnings.push(warning);
  }
  if (!existsSync(join(dir, 'package-lock.json')) && !existsSync(join(dir, 'npm-shrinkwrap.json'))) {
    warnings.push("there is no package-lock.json: the CI workflow's `npm ci` (and setup-node's npm cache) need one. `npm install` writes it; commit it");
  }
  // `npx aula` where aula is not installed would look for it on the npm registry
  const install = installedFor(dir) !== null ? [] : listed === undefined ? [`npm install ./${tarball}`] : ['npm install'];
  return { warnings, next: [...install, 'npx aula check', 'npx aula build', 'npx aula serve'] };
}
