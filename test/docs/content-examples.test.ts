// The content files the pages show (`<!-- test: content <path> -->`), each page's a content
// folder of its own: it must be valid, build, and validate against the schema a first line names
// (in dist/schemas/, or in node_modules/aula/lib/schemas/ as if aula were installed in the site).
// A file shown as broken (`content-broken <path>`) is added, and `aula check` must print exactly
// the block after it (`check-output`).
import Ajv2020 from 'ajv/dist/2020.js';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { splitFrontMatter } from '../../src/content/front-matter.ts';
import { aula } from '../aula-cli.ts';
import { buildOk, removeDir, tempDir, writeContent } from '../helpers.ts';
import { serve } from '../../src/index.ts';
import { at, blocksFor, docPages, docText, ROOT, type DocBlock } from './doc-blocks.ts';

let work: string;

beforeAll(() => {
  work = tempDir('aula-doc-content-');
});
afterAll(() => removeDir(work));

/** The files of a page's `content` blocks, path → text; the media files they name get a few bytes. */
function contentOf(blocks: readonly DocBlock[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const b of blocks) {
    expect(b.args, `${at(b)}: \`content\` needs the file's path`).toHaveLength(1);
    files[b.args[0]] = b.text;
  }
  for (const text of Object.values(files)) {
    for (const m of text.matchAll(/^\s*-?\s*file: (\S+)$/gm)) files[m[1]] ??= `%PDF-1.4 (a stand-in for ${m[1]})\n`;
  }
  return files;
}

const pages = docPages().filter((page) => blocksFor('content', [page]).length > 0);

describe.each(pages)('the content shown in %s', (page) => {
  let site: string;
  let files: Record<string, string>;

  beforeAll(async () => {
    site = join(work, page.replace(/[/.]/g, '-'));
    files = contentOf(blocksFor('content', [page]));
    writeContent(join(site, 'content'), files);
    await buildOk({ content: join(site, 'content'), out: join(site, 'dist') });
  });

  it('is valid and builds', () => {
    expect(existsSync(join(site, 'dist', 'manifest.json'))).toBe(true);
  });

  it('validates against the schema its first line names: one the package ships, or the build wrote there', () => {
    const named = Object.entries(files).filter(([, text]) => /^(?:---\n)?# yaml-language-server: \$schema=/.test(text));
    for (const [path, text] of named) {
      const rel = /^(?:---\n)?# yaml-language-server: \$schema=(\S+)/.exec(text)![1];
      let schemaFile = resolve(dirname(join(site, 'content', path)), rel);
      // aula installed in the site, beside content/: this checkout stands in for the package
      const installed = join(site, 'node_modules', 'aula');
      if (schemaFile.startsWith(`${installed}/`)) schemaFile = join(ROOT, schemaFile.slice(installed.length + 1));
      expect(existsSync(schemaFile), `${path}: ${rel}`).toBe(true);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      for (const name of ['event', 'event-front-matter', 'site', 'pages', 'categories', 'media', 'directory']) {
        ajv.addSchema(JSON.parse(readFileSync(join(site, 'dist', 'schemas', `${name}.schema.json`), 'utf8')));
      }
      const value = path.endsWith('.md') ? parse((splitFrontMatter(text) as { yaml: string }).yaml) : parse(text);
      const validate = ajv.getSchema(JSON.parse(readFileSync(schemaFile, 'utf8')).$id)!;
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  const broken = blocksFor('content-broken', [page]);
  it.runIf(broken.length > 0)('with the broken file added, `aula check` prints the output shown', () => {
    const output = blocksFor('check-output', [page]);
    expect(output, `${page}: one check-output block`).toHaveLength(1);
    const dir = join(site, 'broken');
    cpSync(join(site, 'content'), dir, { recursive: true });
    writeContent(dir, contentOf(broken));
    const r = aula(['check', '--content', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(output[0].text);
  });
});

describe("docs/content-format.md's media records, served", () => {
  it('answer a record with file: at its url, as its type with nosniff, and one without file: 404', async () => {
    const site = join(work, 'docs-content-format-md');
    const server = await serve({ dist: join(site, 'dist'), port: 0 });
    try {
      const withFile = await fetch(`${server.url}/cms/media/10/`);
      expect([withFile.status, withFile.headers.get('content-type'), withFile.headers.get('x-content-type-options')]).toEqual([200, 'application/pdf', 'nosniff']);
      expect(await withFile.text()).toMatch(/^%PDF/);
      expect((await fetch(`${server.url}/cms/media/11/`)).status).toBe(404);
    } finally {
      await server.close();
    }
    const text = docText('docs/content-format.md').replace(/\s+/g, ' ');
    expect(text).toContain('**With `file`** (record 10)');
    expect(text).toContain('**Without `file`** (record 11)');
    expect(text).toContain('aula has nothing to serve (404)');
  });
});

it('finds the content of the README and of docs/content-format.md', () => {
  expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/content-format.md']));
});
