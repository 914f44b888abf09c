/**
 * White space that collapsing changes: runs, and single characters other than a space. (`\s+`
 * would also replace every single space by itself, which made teasers several times slower.)
 */
const COLLAPSIBLE = /\s{2,}|[^\S ]/g;

/** Collapses white-space runs to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(COLLAPSIBLE, ' ').trim();
}
