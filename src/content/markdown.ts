// Markdown event bodies to HTML: CommonMark, whose HTML blocks pass through unchanged. Most bodies
// are rendered by markdown-subset.ts, which gives markdown-it's very output for the forms they are
// written in, and declines the rest: markdown-it renders those.
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import { renderMarkdownSubset, type LinkHref } from './markdown-subset.ts';

let markdownIt: MarkdownIt | undefined;

/**
 * markdown-it, loaded the first time a body or link needs it (its one-file CommonJS build, which
 * loads faster than its many ES modules): a build of bodies the subset renders, a build over the
 * state or a parse thread may never need it.
 */
function md(): MarkdownIt {
  if (markdownIt) return markdownIt;
  const MarkdownItClass = createRequire(import.meta.url)('markdown-it') as typeof MarkdownIt;
  // Nested blockquotes and lists are read MAX_NESTING deep: each level costs markdown-it a
  // recursion and the page a wrapper, and 3,000 levels must not become megabytes of markup.
  // (The commonmark preset's value too; set here because the bound is a guarantee, see SECURITY.md.)
  const made = new MarkdownItClass('commonmark');
  // (not in @types/markdown-it's Options, but read by the block and inline parsers)
  Object.assign(made.options, { maxNesting: MAX_NESTING });
  // Past that depth markdown-it drops the rest of the block it is in — for a list item, the rest
  // of the body: the line where it starts dropping is noted, and the body refused (renderMarkdown).
  const block = made.block as unknown as { tokenize: BlockTokenize };
  const tokenize = block.tokenize;
  block.tokenize = function (state, startLine, endLine, silent) {
    if (state.level >= MAX_NESTING) {
      const line = state.skipEmptyLines(startLine);
      if (line < endLine && state.sCount[line] >= state.blkIndent) (state.env as Noted).droppedAt ??= line + 1;
    }
    return tokenize.call(this, state, startLine, endLine, silent);
  };
  return (markdownIt = made);
}

type BlockTokenize = (
  this: unknown,
  state: { level: number; line: number; blkIndent: number; sCount: number[]; env: unknown; skipEmptyLines(line: number): number },
  startLine: number,
  endLine: number,
  silent?: boolean,
) => void;

/** What a render notes in markdown-it's env: the body's first line (1-based) that markdown-it dropped. */
interface Noted {
  droppedAt?: number;
}

/** markdown-it's maxNesting: blockquotes and lists nest fewer levels than this in a body (19 blockquotes are read, 20 are not). */
export const MAX_NESTING = 20;

/** The problem of a body nested past MAX_NESTING at its line `line`. */
const tooDeepBody = (line: number) =>
  `at line ${line} of the body, blockquotes and lists nest deeper than Markdown is read (at most ${MAX_NESTING - 1} levels, a list counting two: itself and its item), and the text from there on would be dropped; nest less`;

/**
 * The largest body (HTML, in UTF-16 code units) an event may have: 4 Mi, far above real events
 * (test/hardening/shutdown.test.ts serves 1.2 MB bodies on purpose).
 */
export const MAX_BODY_LENGTH = 4_194_304;

/**
 * An http(s) URL that markdown-it's normalizeLink gives back as it is: a lowercase ASCII host, and
 * a path, query and fragment of characters it never encodes (markdown.test.ts checks it). Such
 * links are most of a site's; normalizeLink parses and re-encodes each (~3 µs).
 */
export const PLAIN_HTTP_URL = /^https?:\/\/[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*(?:\/[\w\-.~/]*)?(?:\?[\w\-.~=&]*)?(?:#[\w\-.~]*)?$/;

/** A link destination's href as markdown-it makes it, or null where markdown-it refuses it. */
export const linkHref: LinkHref = (destination) => {
  if (destination.length <= 200 && PLAIN_HTTP_URL.test(destination)) return destination;
  const href = md().normalizeLink(destination);
  return md().validateLink(href) ? href : null;
};

/**
 * Emphasis, link, image, code and HTML marks markdown-it is given in a body at most: it holds
 * ~500 bytes of memory for each while it pairs them, so a body of marks costs hundreds of times its size.
 */
export const MOST_MARKS = 262_144;

/** Told why a body cannot be read, and at which of its lines (none: the body as a whole). */
export type BodyProblem = (message: string, line?: number) => void;

/**
 * The body's HTML; `problem` is told why a body cannot be read as written (too long, too many
 * marks, nested past MAX_NESTING), and the HTML is then empty.
 */
export function renderMarkdown(source: string, problem?: BodyProblem): string {
  // (its HTML would be at least as long: refused before it is made)
  if (source.length > MAX_BODY_LENGTH) {
    problem?.(`the body is ${source.length} characters of Markdown; at most ${MAX_BODY_LENGTH} are allowed`);
    return '';
  }
  return renderMarkdownSubset(source, linkHref) ?? renderWithMarkdownIt(source, problem);
}

/** markdown-it alone (markdown-subset.test.ts compares the two). */
export function renderWithMarkdownIt(source: string, problem?: BodyProblem): string {
  const count = source.length > MOST_MARKS ? marks(source) : 0;
  if (count > MOST_MARKS) {
    problem?.(`the body has ${count} emphasis, link, code and HTML marks (* _ [ ] \` <); Markdown is read with at most ${MOST_MARKS}: split the text, or write it with fewer`);
    return '';
  }
  const env: Noted = {};
  const html = md().render(source, env).trim();
  if (env.droppedAt === undefined) return html;
  problem?.(tooDeepBody(env.droppedAt), env.droppedAt);
  return '';
}

function marks(source: string): number {
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    // * _ [ ] ` < (a blockquote's > opens a block, not a mark paired inline)
    if (c === 42 || c === 95 || c === 91 || c === 93 || c === 96 || c === 60) n++;
  }
  return n;
}

/** markdown-it's own href of a link destination (markdown.test.ts checks linkHref's shortcut against it). */
export function markdownItHref(destination: string): string {
  return md().normalizeLink(destination);
}
