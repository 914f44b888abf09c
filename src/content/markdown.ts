// Markdown event bodies to HTML: CommonMark, whose HTML blocks pass through unchanged.
import MarkdownIt from 'markdown-it';

// Nested blockquotes and lists beyond this depth stay text: each level costs markdown-it a
// recursion and the page a wrapper, and 3,000 levels must not become megabytes of markup.
// (The commonmark preset's value too; set here because the bound is a guarantee, see SECURITY.md.)
const md = new MarkdownIt('commonmark');
// (not in @types/markdown-it's Options, but read by the block and inline parsers)
Object.assign(md.options, { maxNesting: 20 });

/**
 * The largest body (HTML, in UTF-16 code units) an event may have: 4 Mi, far above real events
 * (test/hardening/shutdown.test.ts serves 1.2 MB bodies on purpose).
 */
export const MAX_BODY_LENGTH = 4_194_304;

export function renderMarkdown(source: string): string {
  return md.render(source).trim();
}
