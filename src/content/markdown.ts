// Markdown event bodies to HTML: CommonMark, whose HTML blocks pass through unchanged.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt('commonmark');

export function renderMarkdown(source: string): string {
  return md.render(source).trim();
}
