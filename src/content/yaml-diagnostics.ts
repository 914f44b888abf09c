// What the `yaml` library says about a file, made into aula's problems: the warnings that mean a
// value was read as something other than what was written, and where a problem is placed when
// `yaml` places it past the text (a quote that never closes is reported where the file ends).
import type { Document } from 'yaml';

export interface YamlError {
  offset: number;
  message: string;
}

/** YAML 1.2's core tags, which aula reads. */
const CORE_TAGS = ['!!str', '!!int', '!!float', '!!bool', '!!null', '!!seq', '!!map'];

/**
 * The warnings of `yaml` that are problems: a tag it could not apply (`!foo bar`, `!!float 1`,
 * `!!seq {a: 1}`) leaves the value as written, as a string or another collection, with no more
 * than a warning; the value would reach the API as something the tag said it is not.
 */
export function tagWarnings(doc: Document): YamlError[] {
  const found: YamlError[] = [];
  for (const w of doc.warnings) {
    if (w.code !== 'TAG_RESOLVE_FAILED' && w.code !== 'BAD_COLLECTION_TYPE') continue;
    // `Unresolved tag: <tag>`, or `<tag> used for map collection, but expects seq`
    const written = /^Unresolved tag: (\S+)/.exec(w.message)?.[1] ?? w.message.split(' ')[0];
    const tag = written.replace(/^tag:yaml\.org,2002:/, '!!');
    const what = CORE_TAGS.includes(tag) || tag === '!!set' || tag === '!!omap' || tag === '!!pairs' ? `the tag ${tag} does not fit its value` : `unknown tag ${tag}`;
    const read = `aula reads YAML 1.2's core tags (${CORE_TAGS.join(', ')}), each where its value fits`;
    found.push({ offset: w.pos[0], message: `${what}: ${read}; write the value without the tag` });
  }
  return found;
}

/**
 * Where an error is shown. `yaml` reports a quote that is never closed at the end of the text,
 * a line past the file's last; the problem is where the quote opens (the scalar it starts runs
 * to the end). Any other offset past the text is shown at the end of the last line.
 */
export function shownOffset(doc: Document, text: string, error: { offset: number; code?: string }): number {
  if (error.code === 'MISSING_CHAR') {
    const open = openingQuote(doc, error.offset);
    if (open >= 0) return open;
  }
  return withinText(text, error.offset);
}

/** `offset`, or the end of the text's last line when it lies past the text (JSON's errors too). */
export function withinText(text: string, offset: number): number {
  if (offset < text.length) return offset;
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--;
  return end;
}

/** The start of the quoted scalar that ends at `offset` (where `yaml` found no closing quote), or -1. */
function openingQuote(doc: Document, offset: number): number {
  let found = -1;
  const visit = (node: unknown): void => {
    if (found >= 0 || node === null || typeof node !== 'object') return;
    const n = node as { type?: string; range?: number[]; items?: unknown[]; key?: unknown; value?: unknown };
    if ((n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE') && n.range?.[1] === offset) {
      found = n.range[0];
      return;
    }
    if (Array.isArray(n.items)) for (const item of n.items) visit(item);
    if ('key' in n) visit(n.key);
    if ('value' in n) visit(n.value);
  };
  visit(doc.contents);
  return found;
}
