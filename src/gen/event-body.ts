// An event body's blocks written as Markdown (for .md files) or HTML (for YAML and JSON).
// escapeAttribute escapes & < > " (and U+00A0, which no generated text holds), the same
// bytes as the generator's own function did, in text and in attribute values alike.
import { escapeAttribute as escapeHtml } from 'entities';

/** Structured body, rendered to Markdown for .md files and to HTML for YAML/JSON. */
type Inline = string | { em: string } | { strong: string } | { link: string; href: string };
export type Block = { p: Inline[] } | { h: string } | { ul: string[] } | { ol: string[] } | { html: string };

/** Backslash-escapes what CommonMark could read as markup in running text. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, (ch) => `\\${ch}`);
}

function inlineToMarkdown(part: Inline): string {
  if (typeof part === 'string') return escapeMarkdown(part);
  if ('em' in part) return `*${escapeMarkdown(part.em)}*`;
  if ('strong' in part) return `**${escapeMarkdown(part.strong)}**`;
  return `[${escapeMarkdown(part.link)}](${part.href})`;
}

function inlineToHtml(part: Inline): string {
  if (typeof part === 'string') return escapeHtml(part);
  if ('em' in part) return `<em>${escapeHtml(part.em)}</em>`;
  if ('strong' in part) return `<strong>${escapeHtml(part.strong)}</strong>`;
  return `<a href="${escapeHtml(part.href)}">${escapeHtml(part.link)}</a>`;
}

export function blocksToMarkdown(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if ('p' in block) return block.p.map(inlineToMarkdown).join('');
      if ('h' in block) return `## ${escapeMarkdown(block.h)}`;
      if ('ul' in block) return block.ul.map((item) => `- ${escapeMarkdown(item)}`).join('\n');
      if ('ol' in block) return block.ol.map((item, i) => `${i + 1}. ${escapeMarkdown(item)}`).join('\n');
      return block.html;
    })
    .join('\n\n');
}

export function blocksToHtml(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if ('p' in block) return `<p>${block.p.map(inlineToHtml).join('')}</p>`;
      if ('h' in block) return `<h2>${escapeHtml(block.h)}</h2>`;
      if ('ul' in block) return `<ul>\n${block.ul.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n')}\n</ul>`;
      if ('ol' in block) return `<ol>\n${block.ol.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n')}\n</ol>`;
      return block.html;
    })
    .join('\n');
}
