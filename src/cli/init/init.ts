// `aula init [dir]`: a starter content folder, npm scripts and a CI workflow in a site folder.
//
// All or nothing, and only inside the folder: every path it will write is checked first — a
// symbolic link leading outside the folder (at the path or at a folder on the way), something
// that is not a file or folder where one must go, a file it may not write, a content/ that is not
// empty — and any of these refuses the whole run before a byte is written. A write that fails
// anyway (a disk full, a change made meanwhile) undoes the run: the files it created are removed,
// the folders it made removed when empty, and the files it changed get their bytes back. Never
// overwrites: an existing script, workflow or ignore entry is kept and reported.
//
// Never guesses where aula comes from: a dependency package.json lists is kept as written, one
// is added only when the running aula can tell what it was installed from, and what CI will
// miss (aula from a path outside the repository, no aula listed, no lockfile for `npm ci`) is a
// warning that says what to do.
import { accessSync, closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmdirSync, statSync, unlinkSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { causeOf } from '../../util/failure.ts';
import { printable } from '../../util/printable.ts';
import { aulaSpec, dependencyAdvice, installedFor, installedSpec, OWN_PACKAGE } from './aula-dependency.ts';
import { isInside, realOr, repositoryOf } from './paths.ts';
import { IGNORED, SCHEMAS_IN_PACKAGE, STARTER_CONTENT, STARTER_SCRIPTS, WORKFLOW_FILE, withSchemaHint, workflow } from './starter-content.ts';
import { append } from '../../util/append.ts';

export class InitError extends Error {
  override name = 'InitError';
}

export interface InitResult {
  /** files created, relative to the site folder */
  created: string[];
  /** files changed (package.json scripts, .gitignore entries) */
  updated: string[];
  /** what was left as it was, and why */
  skipped: string[];
  /** what may fail later, and what to do about it (printed as warnings; init succeeded) */
  warnings: string[];
  /** the commands to run next, in order */
  next: string[];
}

export interface InitOptions {
  /** called before each file is written, with its path relative to the site folder (tests change the folder there) */
  beforeWrite?(rel: string): void;
  /** the folder of the aula package that runs (default: this one's; tests name an npx cache's) */
  aulaPackage?: string;
}

/** A package name npm accepts, from the folder's name. */
function packageName(dir: string): string {
  const name = basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return name || 'site';
}

/**
 * How a package.json is laid out, so that adding scripts changes only those lines in the user's
 * diff (as npm keeps it): a byte-order mark, the indentation of its first key (none: written on one
 * line), its line ending, and whether it ends with one.
 */
interface Layout {
  bom: boolean;
  indent: string;
  newline: '\n' | '\r\n';
  endsWithNewline: boolean;
}

function layoutOf(text: string): Layout {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  // what comes between `{` and the first key: a line break and the key's indentation, or none
  // (one line); an object without keys has no layout to keep
  const open = /^\s*\{(\s*)(\S)/.exec(body);
  const gap = open?.[1] ?? '';
  const indent = !open || open[2] === '}' ? '  ' : gap.includes('\n') ? gap.slice(gap.lastIndexOf('\n') + 1) || '  ' : '';
  return {
    bom,
    indent,
    newline: /\r\n/.test(body) ? '\r\n' : '\n',
    endsWithNewline: /\n\s*$/.test(body),
  };
}

function withLayout(value: unknown, layout: Layout): string {
  // JSON.stringify escapes line breaks inside strings: every \n it writes is one between lines
  const json = JSON.stringify(value, null, layout.indent).replace(/\n/g, layout.newline);
  return `${layout.bom ? '\uFEFF' : ''}${json}${layout.endsWithNewline ? layout.newline : ''}`;
}

/** package.json's text parsed: the object and the layout to write it back in. */
function parsePackage(text: string, shown: string): { pkg: Record<string, unknown>; layout: Layout } {
  const layout = layoutOf(text);
  let pkg: unknown;
  try {
    pkg = JSON.parse(layout.bom ? text.slice(1) : text);
  } catch (e) {
    throw new InitError(`${shown} is not valid JSON (${(e as Error).message}); fix it first, init changed nothing`);
  }
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) throw new InitError(`${shown} does not hold a JSON object; init changed nothing`);
  const scripts = (pkg as Record<string, unknown>).scripts;
  if (scripts !== undefined && (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts))) {
    throw new InitError(`${shown}: "scripts" is not an object; init changed nothing`);
  }
  return { pkg: pkg as Record<string, unknown>, layout };
}

/** Where a link to nothing points: the real path of the nearest folder of its target that exists, and the rest. */
function whereLinkLeads(link: string): string {
  let rest = '';
  for (let at = resolve(dirname(link), readlinkSync(link)); ; at = dirname(at)) {
    try {
      return join(realpathSync(at), rest);
    } catch {
      if (dirname(at) === at) return at;
      rest = join(basename(at), rest);
    }
  }
}

/** What stands at a path init will write: nothing, or the thing (through links inside the folder) and the real path. */
type Found = { exists: false } | { exists: true; real: string; stat: Stats };

/**
 * The site folder as init sees it: paths in it are checked step by step, so that no write can
 * reach outside it through a symbolic link, whether the link is the file itself or a folder on
 * the way.
 */
class SiteFolder {
  /** the folder's real path: what "inside" means */
  readonly real: string | null;

  constructor(
    readonly path: string,
    /** the folder as the user named it, for messages */
    readonly shownAs: string,
  ) {
    let real: string | null = null;
    try {
      real = realpathSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new InitError(`${this.shown('')}: ${causeOf(e)}; init changed nothing`);
    }
    if (real !== null && !statSync(real).isDirectory()) throw new InitError(`${this.shown('')} exists and is not a folder; init changed nothing`);
    this.real = real;
  }

  /** `rel` as the user would write it (`site/package.json`), escaped for a terminal */
  shown(rel: string): string {
    return printable(rel === '' ? this.shownAs : join(this.shownAs, rel));
  }

  get leadsOutside(): string {
    return `is a symbolic link that leads outside ${this.shown('')}; init writes only inside it`;
  }

  refuse(rel: string, why: string): never {
    throw new InitError(`${this.shown(rel)} ${why}; init changed nothing`);
  }

  /** What is at `rel`: each folder on the way must be a folder inside this one, and so must the end, through any link. */
  find(rel: string): Found {
    if (this.real === null) return { exists: false };
    const parts = rel.split('/');
    let at = this.path;
    for (let i = 0; ; i++) {
      const step = parts.slice(0, i + 1).join('/');
      at = join(at, parts[i]);
      let own: Stats;
      try {
        own = lstatSync(at);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
        return this.refuse(step, `cannot be looked at (${causeOf(e)})`);
      }
      let real = at;
      if (own.isSymbolicLink()) {
        try {
          real = realpathSync(at);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return this.refuse(step, `is a symbolic link that cannot be followed (${causeOf(e)})`);
          if (!isInside(this.real, whereLinkLeads(at))) return this.refuse(step, this.leadsOutside);
          return this.refuse(step, 'is a symbolic link to nothing; init writes no file through it');
        }
        if (!isInside(this.real, real)) return this.refuse(step, this.leadsOutside);
      }
      const stat = own.isSymbolicLink() ? statSync(real) : own;
      if (i === parts.length - 1) return { exists: true, real, stat };
      if (!stat.isDirectory()) return this.refuse(step, 'is not a folder');
      at = real;
    }
  }

  /** An existing file init will change: its real path and bytes, when it may be written. */
  changeable(rel: string, found: Found & { exists: true }): { real: string; bytes: Buffer } {
    if (!found.stat.isFile()) this.refuse(rel, 'is not a file');
    try {
      accessSync(found.real, constants.R_OK | constants.W_OK);
      return { real: found.real, bytes: readFileSync(found.real) };
    } catch (e) {
      return this.refuse(rel, `cannot be changed (${causeOf(e)})`);
    }
  }
}

/** A change of one file, planned: created where there is none, or its bytes replaced. */
type Write = { rel: string; kind: 'create'; text: string } | { rel: string; kind: 'change'; real: string; before: Buffer; text: string };

/**
 * Where an editor finds the JSON Schemas the starter files name: in the aula package node
 * resolves from the site (node_modules/aula here, or in a folder above it, where a workspace
 * installs it), else where `npm install aula` will put it.
 */
function schemasFolder(site: string): string {
  return join(installedFor(site) ?? site, SCHEMAS_IN_PACKAGE);
}

/** Everything init will write, checked; throws InitError (nothing written) when anything stands in the way. */
function plan(folder: SiteFolder, options: InitOptions): { writes: Write[]; result: InitResult } {
  const result: InitResult = { created: [], updated: [], skipped: [], warnings: [], next: [] };
  const writes: Write[] = [];
  const site = folder.real ?? folder.path;
  const repository = repositoryOf(site);

  const content = folder.find('content');
  if (content.exists) {
    if (!content.stat.isDirectory()) folder.refuse('content', 'exists and is not a folder');
    if (readdirSync(content.real).length > 0) throw new InitError(`${folder.shown('content')}/ is not empty; init writes a starter content folder only where there is none`);
  }
  const schemas = schemasFolder(folder.path);
  for (const [rel, starter] of STARTER_CONTENT) {
    const file = join(folder.path, 'content', rel);
    const hint = relative(dirname(file), join(schemas, starter.schema)).split(sep).join('/');
    writes.push({ rel: `content/${rel}`, kind: 'create', text: withSchemaHint(starter, hint) });
  }

  // aula as package.json lists it once init is done: a spec the user wrote is never changed
  let listed: string | undefined;
  const installedWith = () => installedSpec(site, options.aulaPackage ?? OWN_PACKAGE);
  const pkgFile = folder.find('package.json');
  if (pkgFile.exists) {
    const { real, bytes } = folder.changeable('package.json', pkgFile);
    const existing = parsePackage(bytes.toString('utf8'), folder.shown('package.json'));
    const scripts = { ...((existing.pkg.scripts as Record<string, string> | undefined) ?? {}) };
    let added = 0;
    for (const [name, command] of Object.entries(STARTER_SCRIPTS)) {
      if (scripts[name] === undefined) {
        scripts[name] = command;
        added++;
      } else if (scripts[name] !== command) {
        result.skipped.push(`package.json: kept your script "${name}" (${scripts[name]}); aula's would be "${command}"`);
      }
    }
    const pkg: Record<string, unknown> = { ...existing.pkg, scripts };
    listed = aulaSpec(existing.pkg);
    const deps = existing.pkg.dependencies;
    const spec = listed === undefined && (deps === undefined || (typeof deps === 'object' && deps !== null && !Array.isArray(deps))) ? installedWith() : null;
    if (spec !== null) {
      pkg.dependencies = { ...(deps as Record<string, string> | undefined), aula: spec };
      listed = spec;
      added++;
    }
    if (added > 0) writes.push({ rel: 'package.json', kind: 'change', real, before: bytes, text: withLayout(pkg, existing.layout) });
  } else {
    const spec = installedWith();
    if (spec !== null) listed = spec;
    const pkg = { name: packageName(folder.path), private: true, scripts: STARTER_SCRIPTS, ...(spec !== null && { dependencies: { aula: spec } }) };
    writes.push({ rel: 'package.json', kind: 'create', text: `${JSON.stringify(pkg, null, 2)}\n` });
  }
  const advice = dependencyAdvice(folder.path, site, repository, listed);
  append(result.warnings, advice.warnings);
  append(result.next, advice.next);

  const siteDir = repository === null ? '' : relative(realOr(repository), site).split(sep).join('/');
  if (folder.find(WORKFLOW_FILE).exists) result.skipped.push(`${WORKFLOW_FILE}: exists, left as it is`);
  else {
    const nodeMajor = Math.max(20, Number(process.versions.node.split('.')[0]));
    writes.push({ rel: WORKFLOW_FILE, kind: 'create', text: workflow({ siteDir, nodeMajor }) });
    if (siteDir !== '') {
      const top = printable(relative(process.cwd(), repository!) || '.');
      result.warnings.push(`the site is in the git repository ${top}, below its top: GitHub runs only the workflows in ${join(top, WORKFLOW_FILE)}; move ${WORKFLOW_FILE} there (its steps run in ${printable(siteDir)}/)`);
    }
  }

  const ignore = folder.find('.gitignore');
  if (!ignore.exists) {
    writes.push({ rel: '.gitignore', kind: 'create', text: `${IGNORED.join('\n')}\n` });
  } else {
    const { real, bytes } = folder.changeable('.gitignore', ignore);
    const text = bytes.toString('utf8');
    const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
    const missing = IGNORED.filter((line) => !have.has(line) && !have.has(line.replace(/\/$/, '')) && !have.has(`/${line}`));
    if (missing.length > 0) writes.push({ rel: '.gitignore', kind: 'change', real, before: bytes, text: `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n` });
  }
  return { writes, result };
}

/**
 * Makes the folders up to `dir` that do not exist, one by one (so each is known to be made
 * here), and returns them; a link or file on the way was refused by the plan.
 */
function makeFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at); at = dirname(at)) missing.unshift(at);
  const made: string[] = [];
  for (const folder of missing) {
    mkdirSync(folder);
    made.push(folder);
  }
  return made;
}

/** Writes all of it, or, when a write fails, undoes what was done and throws InitError naming the failure. */
function carryOut(folder: SiteFolder, writes: Write[], options: InitOptions): void {
  const undo: { what: string; run(): void }[] = [];
  let failed: { rel: string; error: unknown } | null = null;
  for (const write of writes) {
    const path = join(folder.path, write.rel);
    try {
      options.beforeWrite?.(write.rel);
      if (write.kind === 'create') {
        for (const made of makeFolders(dirname(path))) undo.push({ what: relative(folder.path, made) || '.', run: () => rmdirSync(made) });
        // 'wx': a file that appeared since the checks is neither overwritten nor written through
        const fd = openSync(path, 'wx');
        undo.push({ what: write.rel, run: () => unlinkSync(path) });
        try {
          writeSync(fd, write.text);
        } finally {
          closeSync(fd);
        }
      } else {
        const { real, before } = write;
        // a write that fails midway may have cut the file short: its bytes are put back
        undo.push({ what: write.rel, run: () => !readFileSync(real).equals(before) && writeFileSync(real, before) });
        writeFileSync(real, write.text);
      }
    } catch (error) {
      failed = { rel: write.rel, error };
      break;
    }
  }
  if (failed === null) return;
  const stuck: string[] = [];
  for (const step of undo.reverse()) {
    try {
      step.run();
    } catch {
      stuck.push(step.what);
    }
  }
  // the path the error names (a folder on the way, say), else the file being written
  const at = (failed.error as NodeJS.ErrnoException).path;
  const rel = typeof at === 'string' && isInside(folder.path, at) ? relative(folder.path, at) : failed.rel;
  const cause = failed.error instanceof InitError ? failed.error.message : `${folder.shown(rel)}: ${causeOf(failed.error)}`;
  throw new InitError(stuck.length === 0 ? `${cause}; init changed nothing` : `${cause}; init could not undo its changes to ${stuck.map((rel) => printable(rel)).join(', ')}`);
}

export function init(siteDir = '.', options: InitOptions = {}): InitResult {
  const folder = new SiteFolder(resolve(siteDir), siteDir);
  const { writes, result } = plan(folder, options);
  // the files changed first: what fails after them has their bytes put back, which is tested
  carryOut(folder, [...writes.filter((w) => w.kind === 'change'), ...writes.filter((w) => w.kind === 'create')], options);
  for (const write of writes) (write.kind === 'create' ? result.created : result.updated).push(write.rel);
  return result;
}
