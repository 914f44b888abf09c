// `aula init [dir]`: a starter content folder, npm scripts and a CI workflow in a site folder.
// Never overwrites: a non-empty content/ refuses the whole run before anything is written, and
// an existing script, workflow or ignore entry is kept and reported.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AULA_VERSION } from '../../version.ts';
import { IGNORED, STARTER_CONTENT, STARTER_SCRIPTS, WORKFLOW, WORKFLOW_FILE } from './starter-content.ts';

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
}

function isEmptyDir(dir: string): boolean {
  if (!existsSync(dir)) return true;
  if (!statSync(dir).isDirectory()) throw new InitError(`${dir} exists and is not a folder`);
  return readdirSync(dir).length === 0;
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

/** package.json as a plan: the parsed object and the layout to write it back in. */
function readPackage(file: string): { pkg: Record<string, unknown>; layout: Layout } | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const layout = layoutOf(text);
  let pkg: unknown;
  try {
    pkg = JSON.parse(layout.bom ? text.slice(1) : text);
  } catch (e) {
    throw new InitError(`${file} is not valid JSON (${(e as Error).message}); fix it first, init changed nothing`);
  }
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) throw new InitError(`${file} does not hold a JSON object; init changed nothing`);
  const scripts = (pkg as Record<string, unknown>).scripts;
  if (scripts !== undefined && (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts))) {
    throw new InitError(`${file}: "scripts" is not an object; init changed nothing`);
  }
  return { pkg: pkg as Record<string, unknown>, layout };
}

function create(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  // 'wx': a file that appeared since the checks is not overwritten
  writeFileSync(file, text, { flag: 'wx' });
}

export function init(siteDir = '.'): InitResult {
  const site = resolve(siteDir);
  const content = join(site, 'content');
  if (!isEmptyDir(content)) throw new InitError(`${join(siteDir, 'content')}/ is not empty; init writes a starter content folder only where there is none`);
  const pkgFile = join(site, 'package.json');
  const existing = readPackage(pkgFile);
  const result: InitResult = { created: [], updated: [], skipped: [] };

  for (const [rel, text] of STARTER_CONTENT) {
    create(join(content, rel), text);
    result.created.push(`content/${rel}`);
  }

  if (existing) {
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
    if (added > 0) {
      writeFileSync(pkgFile, withLayout({ ...existing.pkg, scripts }, existing.layout));
      result.updated.push('package.json');
    }
  } else {
    // with aula as a dependency, so `npm ci` in CI installs the version used here
    const pkg = { name: packageName(site), private: true, scripts: STARTER_SCRIPTS, devDependencies: { aula: `^${AULA_VERSION}` } };
    create(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
    result.created.push('package.json');
  }

  const workflow = join(site, WORKFLOW_FILE);
  if (existsSync(workflow)) result.skipped.push(`${WORKFLOW_FILE}: exists, left as it is`);
  else {
    create(workflow, WORKFLOW);
    result.created.push(WORKFLOW_FILE);
  }

  const ignoreFile = join(site, '.gitignore');
  if (!existsSync(ignoreFile)) {
    create(ignoreFile, `${IGNORED.join('\n')}\n`);
    result.created.push('.gitignore');
  } else {
    const text = readFileSync(ignoreFile, 'utf8');
    const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
    const missing = IGNORED.filter((line) => !have.has(line) && !have.has(line.replace(/\/$/, '')) && !have.has(`/${line}`));
    if (missing.length > 0) {
      writeFileSync(ignoreFile, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
      result.updated.push('.gitignore');
    }
  }
  return result;
}
