// The user's documentation as tests read it: README.md and every page of docs/, and the fenced
// code blocks in them, each with where it stands, so a test can run exactly what a page shows.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** README.md and docs/*.md, relative to the repository, README first. */
export function docPages(): string[] {
  const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

export function docText(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8');
}

export interface DocBlock {
  /** the page, relative to the repository */
  page: string;
  /** the line of the opening fence (1-based) */
  line: number;
  /** the fence's info string, e.g. `sh`, `yaml`, `nginx` ('' when it has none) */
  lang: string;
  /** the block's text, every line ending with a line feed; a block indented under a list item loses that indentation */
  text: string;
  /** the runner the `<!-- test: runner args -->` line right before the fence names, and its arguments */
  runner: string | null;
  args: string[];
}

/** Every fenced block of the pages (default: all of them), in page order. */
export function docBlocks(pages: readonly string[] = docPages()): DocBlock[] {
  const blocks: DocBlock[] = [];
  for (const page of pages) {
    const lines = docText(page).split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^( *)```(\S*)\s*$/.exec(lines[i]);
      if (!open) continue;
      const [, indent, lang] = open;
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && lines[j] !== `${indent}\`\`\``) body.push(lines[j++].slice(indent.length));
      if (j === lines.length) throw new Error(`${page}:${i + 1}: a \`\`\`${lang} block is never closed`);
      const tag = i > 0 ? /^ *<!-- test: (.+?) -->$/.exec(lines[i - 1]) : null;
      const [runner = null, ...args] = tag ? tag[1].split(/\s+/) : [];
      blocks.push({ page, line: i + 1, lang, text: body.map((l) => `${l}\n`).join(''), runner, args });
      i = j;
    }
  }
  return blocks;
}

/** `where` for messages: page:line. */
export const at = (b: DocBlock) => `${b.page}:${b.line}`;

/** The blocks a runner runs, in page order. */
export function blocksFor(runner: string, pages?: readonly string[]): DocBlock[] {
  return docBlocks(pages).filter((b) => b.runner === runner);
}
