// docs/operating.md's `aula init` section quotes init's own words: each warning it lists begins
// a warning init gives (and every warning init can give is listed), and its refusal is the line
// init prints for a link out of the folder. docs/deploying.md names the starter's base_url.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { init } from '../../src/cli/init/init.ts';
import { STARTER_CONTENT } from '../../src/cli/init/starter-content.ts';
import { aula } from '../aula-cli.ts';
import { removeDir, tempDir } from '../helpers.ts';
import { docText, ROOT } from './doc-blocks.ts';

const PAGE = 'docs/operating.md';

/** The section's text, its lines joined, from its heading to the next. */
function section(): string {
  const text = docText(PAGE);
  const start = text.indexOf('## aula init\n');
  return text.slice(start, text.indexOf('\n## ', start + 1)).replace(/\s*\n\s*/g, ' ');
}

let work: string;
beforeAll(() => {
  work = tempDir('aula-init-docs-');
});
afterAll(() => removeDir(work));

/** Every warning init gives, from sites that call for each. */
function warnings(): string[] {
  const all: string[] = [];
  const site = (name: string, pkg?: object, git = false) => {
    const dir = join(work, name, 'site');
    mkdirSync(dir, { recursive: true });
    if (git) mkdirSync(join(work, name, '.git'));
    if (pkg) writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    return dir;
  };
  all.push(...init(site('outside', { dependencies: { aula: 'file:../aula-0.1.0.tgz' } })).warnings);
  all.push(...init(site('none')).warnings);
  all.push(...init(site('below', { dependencies: { aula: 'file:aula-0.1.0.tgz' } }, true)).warnings);
  return [...new Set(all)];
}

describe(`${PAGE}: aula init`, () => {
  it('lists every warning init gives, each as it begins', () => {
    const listed = [...section().matchAll(/- `([^`]+)`/g)].map((m) => m[1].replace(/ …$/, ''));
    const given = warnings();
    expect(listed.length).toBeGreaterThanOrEqual(4);
    for (const quote of listed) {
      const [head] = quote.split('…');
      expect(given.some((w) => w.startsWith(head.trim())), quote).toBe(true);
    }
    for (const warning of given) expect(listed.some((quote) => warning.startsWith(quote.split('…')[0].trim())), warning).toBe(true);
  });

  it("quotes init's refusal of a link out of the folder", () => {
    const shown = /\(`(aula: site\/\.gitignore [^`]+)`\)/.exec(section())![1];
    const base = join(work, 'link');
    mkdirSync(join(base, 'site'), { recursive: true });
    writeFileSync(join(base, 'outside'), '');
    symlinkSync('../outside', join(base, 'site', '.gitignore'));
    const r = aula(['init', 'site'], { cwd: base });
    expect([r.code, r.err]).toEqual([1, `${shown}\n`]);
  });
});

it("docs/deploying.md names the base_url of init's site.yaml, to be set before publishing", () => {
  const { base_url } = parse(STARTER_CONTENT.get('site.yaml')!.text);
  expect(docText('docs/deploying.md').replace(/\s+/g, ' ')).toContain(`Set \`base_url\` in \`content/site.yaml\` to where the API will be public before you publish: every link and media URL in \`dist/\` is built on it, and the starter's is \`${base_url}\``);
});
