// Turns the text of a content file into plain values, and Issues into positioned Problems.
//
// Values come from the fastest reader that is exact for the text: JSON.parse for `.json`,
// the YAML subset reader for plain YAML, and the `yaml` library otherwise. Positions always
// come from `yaml` (parseDocument + LineCounter), which runs again only for the few files that
// have a problem, so a clean build pays for no position bookkeeping at all.
import { createRequire } from 'node:module';
import type { Node } from 'yaml';
import { splitFrontMatter } from './front-matter.ts';
import { formatKey, type Issue, type Path, type Problem } from './problems.ts';
import { checkValue, MAX_DEPTH, positionOf, scanNesting, type ValueLimits } from './value-limits.ts';
import { shownOffset, tagWarnings, withinText } from './yaml-diagnostics.ts';
import { parseYamlSubset, subsetStop } from './yaml-subset.ts';

// `yaml` is loaded the first time a file needs it (~30 ms of every process's start, and of every
// parse thread's): a build of plain content, a patch or a dev rebuild may never need it.
let yamlLibrary: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => (yamlLibrary ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

export const isMarkdown = (file: string) => file.endsWith('.md');
const isJson = (file: string) => file.endsWith('.json');

/** The YAML or JSON part of a file: all of it, or a Markdown file's front matter. */
export type DataPart =
  | { ok: true; text: string; lineOffset: number; body: string | null }
  | { ok: false; problem: Problem };

export function dataPart(file: string, text: string): DataPart {
  if (!isMarkdown(file)) return { ok: true, text, lineOffset: 0, body: null };
  const fm = splitFrontMatter(text);
  if (!fm.ok) return { ok: false, problem: { file, line: 1, column: 1, key: '', message: fm.message } };
  return { ok: true, text: fm.yaml, lineOffset: fm.lineOffset, body: fm.body };
}

export type DataValue = { ok: true; value: unknown; limits: ValueLimits } | { ok: false; problems: Problem[] };

export const TOO_DEEP = `nested deeper than ${MAX_DEPTH} levels (lists and mappings inside each other); content may nest at most ${MAX_DEPTH}`;

export function readData(file: string, part: { text: string; lineOffset: number }): DataValue {
  let fast: ReturnType<typeof readJson>;
  /** how deep the YAML subset's value nests, as its reader counted (-1: none read, or JSON) */
  let depth = -1;
  try {
    if (isJson(file)) fast = readJson(part.text);
    else {
      const subset = parseYamlSubset(lineFeeds(part.text));
      fast = subset;
      depth = subset?.depth ?? -1;
    }
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    fast = undefined; // nested deep enough to exhaust the stack: judged below
  }
  if (fast && 'value' in fast) {
    // The YAML subset's values need no walk: its reader counted their depth, and gives no integer
    // past 2^53-1 (it declines them) and no alias (so they are at most the text's size).
    const limits = depth >= 0 && depth <= MAX_DEPTH ? { tooDeep: null, unsafe: [], unreadable: [], size: part.text.length } : checkValue(fast.value);
    // JSON.parse has rounded an integer beyond 2^53-1: read again, keeping its digits.
    if (!(isJson(file) && limits.unsafe.length > 0)) return { ok: true, value: fast.value, limits };
  }
  // `yaml` copes with thousands of levels but not with a megabyte of `[`: refuse those first.
  const deepAt = scanNesting(part.text);
  if (deepAt >= 0) {
    const { line, column } = positionOf(part.text, deepAt);
    return { ok: false, problems: [{ file, line: line + part.lineOffset, column, key: '', message: TOO_DEEP }] };
  }
  // JSON.parse's error, where it has a position, is the one reported (below): `yaml` need not read the text
  if (fast && 'error' in fast && fast.error.offset !== undefined) {
    const { line, column } = positionOf(part.text, withinText(part.text, fast.error.offset));
    return { ok: false, problems: [{ file, line: line + part.lineOffset, column, key: '', message: `invalid JSON: ${fast.error.message}` }] };
  }
  const tooLarge = beyondFullReader(file, part);
  if (tooLarge !== null) return { ok: false, problems: [tooLarge] };
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  let errors: { offset: number; message: string }[];
  let value: unknown;
  let doc: ReturnType<typeof parseDocument> | undefined;
  let anchored = { aliases: 0, count: 0, first: 0 };
  try {
    // Integers as BigInt: one beyond 2^53-1 is then reported as written (see value-limits.ts).
    doc = parseDocument(part.text, { lineCounter, prettyErrors: false, intAsBigInt: true, uniqueKeys: false });
    const parsed = doc;
    const at = (e: { pos: [number, number]; code: string }) => shownOffset(parsed, part.text, { offset: e.pos[0], code: e.code });
    const syntax = parsed.errors.map((e) => ({ offset: at(e), message: libraryMessage(e) }));
    errors = [...syntax, ...tagWarnings(parsed), ...versionDirective(parsed), ...repeatedKeys(parsed, part.text)];
    errors.sort((a, b) => a.offset - b.offset);
    // What the parser finds after its first syntax error follows from that one (one unclosed `[`
    // or a bad indent reads as several): the author is told the first, where the mistake is.
    const first = errors.findIndex((e) => syntax.includes(e));
    if (first >= 0) errors.length = first + 1;
    // (a key written a thousand times would otherwise be a thousand lines)
    if (errors.length > MOST_SHOWN) errors.splice(MOST_SHOWN, Infinity, { offset: errors[MOST_SHOWN].offset, message: `and ${errors.length - MOST_SHOWN} more problems from here on, not shown: correct those above first` });
    anchored = anchoredNodes(doc);
    if (errors.length === 0 && anchored.aliases * anchored.count > MOST_ALIAS_STEPS) {
      errors = [{ offset: anchored.first, message: `its ${anchored.aliases} aliases would each be looked up among its ${anchored.count} anchors and aliases, more than ${MOST_ALIAS_STEPS.toLocaleString('en-US')} steps; write the values out, or split the file` }];
    }
    if (errors.length === 0) value = doc.toJS();
  } catch (e) {
    errors = [{ offset: 0, message: (e as Error).message }]; // e.g. too many alias expansions
  }
  // For JSON, JSON.parse's error is the clearer one when it has a position, and the only one
  // when YAML accepts the text (trailing commas, empty values): a .json file must be JSON.
  if (fast && 'error' in fast && (fast.error.offset !== undefined || errors.length === 0)) {
    errors = [{ offset: withinText(part.text, fast.error.offset ?? 0), message: fast.error.message }];
  }
  if (errors.length === 0) {
    const limits = checkValue(value);
    // Numbers left unsafe here were written as floats (1e20): not integers that lost digits.
    limits.unsafe = limits.unsafe.filter((u) => u.text !== '');
    if (limits.size <= maxExpansion(part.text.length)) return { ok: true, value, limits };
    // `yaml` bounds how often aliases are used, not what they repeat: a 1 MB string aliased 99
    // times is 99 MB of values, which every later stage (rows, pages, indexes) would copy again.
    errors = [{ offset: anchored.first, message: `its aliases (*name) expand ${mb(part.text.length)} of text to ${mb(limits.size)} of values, more than ${EXPANSION} times the text and 1 MiB; write the values out, or alias less` }];
  }
  const language = isJson(file) ? 'JSON' : 'YAML';
  const problems = errors.map(({ offset, message }): Problem => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line: line + part.lineOffset, column: col, key: '', message: `invalid ${language}: ${message}` };
  });
  return { ok: false, problems };
}

/** Problems of one file's YAML told at most; the rest are counted. */
const MOST_SHOWN = 20;

/**
 * YAML tokens `yaml` is given at most. What the fast readers decline (a mistake, or YAML beyond
 * the subset) is read by `yaml`, whose document of a broken text holds ~400 bytes per token: a
 * longer text is refused where the subset reader stops, which is where its mistake, or the YAML
 * only `yaml` reads, begins.
 */
export const MOST_FULL_TOKENS = 1_000_000;

/** (written out, not by toLocaleString: that would start ICU in every process that loads this module) */
export const BEYOND_FULL_READER = `from here on this file needs the full YAML reader (a mistake, or YAML beyond plain mappings, lists and one-line values), which reads files of at most ${String(MOST_FULL_TOKENS).replace(/\B(?=(\d{3})+$)/g, ',')} YAML tokens, and this one has more: correct the mistake, write this part plainly, or split the file`;

function beyondFullReader(file: string, part: { text: string; lineOffset: number }): Problem | null {
  // the lexer makes at most two tokens a character (a scalar's mark, then the scalar) and a few a
  // document: a text of a third of the bound cannot pass it, and is not lexed once more for nothing
  if (part.text.length <= MOST_FULL_TOKENS / 3) return null;
  let tokens = 0;
  for (const _ of new (yaml().Lexer)().lex(part.text)) if (++tokens > MOST_FULL_TOKENS) break;
  if (tokens <= MOST_FULL_TOKENS) return null;
  // (line feeds for CRLF line ends leave every line and column where it is)
  const text = lineFeeds(part.text);
  const { line, column } = positionOf(text, Math.max(0, subsetStop(text)));
  return { file, line: line + part.lineOffset, column, key: '', message: BEYOND_FULL_READER };
}

/** YAML reads a CRLF line end as a line feed, in scalars too: a Windows checkout's files are then read by the subset reader. */
const lineFeeds = (text: string) => (text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text);

/** `yaml`'s error message, or aula's where `yaml`'s speaks to a programmer (MULTIPLE_DOCS names its own API). */
function libraryMessage(e: { code: string; message: string }): string {
  if (e.code === 'MULTIPLE_DOCS') return 'a file holds one YAML document, and this one has another after a `---` or `...` line: make them one list, or split the file';
  return e.message;
}

/** A `%YAML` directive naming another version than 1.2: `yaml` would then read `on`, `yes` … as booleans, which YAML 1.2's core schema (what aula reads) leaves text. */
function versionDirective(doc: import('yaml').Document): { offset: number; message: string }[] {
  const { version, explicit } = doc.directives?.yaml ?? {};
  return explicit && version !== '1.2' ? [{ offset: 0, message: `aula reads YAML 1.2's core schema: remove the %YAML ${version} directive` }] : [];
}

/**
 * The keys a mapping repeats, as `yaml` reports them ("Map keys must be unique", at the key):
 * found here in one pass per mapping, with `yaml`'s own check turned off, which compares each key
 * with every key before it (quadratic in a mapping's keys).
 */
function repeatedKeys(doc: import('yaml').Document, text: string): { offset: number; message: string }[] {
  const { isAlias, isCollection, isScalar, visit } = yaml();
  const found: { offset: number; message: string }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        // as `yaml` compares them: scalars by value (NaN equals nothing), other keys by identity
        if (isCollection(pair.key) || (isAlias(pair.key) && isCollection(pair.key.resolve(doc)))) {
          // `yaml` would make it text, with a warning on the process's stderr; no field is named by one
          found.push({ offset: keyStart(text, pair.key.range), message: 'a key must be text or a number, not a list or a mapping' });
          continue;
        }
        if (!isScalar(pair.key) || Number.isNaN(pair.key.value)) continue;
        if (seen.has(pair.key.value)) found.push({ offset: keyStart(text, pair.key.range), message: 'Map keys must be unique' });
        else seen.add(pair.key.value);
      }
    },
  });
  return found;
}

/**
 * Where `yaml` says a key starts: the key itself, but for an empty one (`? ` alone, `: 1`), placed
 * back at the end of what came before it, where the next token is, past blanks and comments.
 */
function keyStart(text: string, range: readonly number[] | null | undefined): number {
  let at = range?.[0] ?? 0;
  if (range && range[1] > range[0]) return at;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) at++;
    else if (c === 0x23) at = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
    else break;
  }
  return at;
}

/**
 * At most this many steps of `yaml`'s alias resolution in a file: it looks each alias up by a
 * walk over every anchored node and alias, so a file's aliases times those nodes.
 */
const MOST_ALIAS_STEPS = 50_000_000;

/** How many nodes of `doc` are aliases, how many are aliases or carry an anchor, and where the first alias is (0 without one). */
function anchoredNodes(doc: import('yaml').Document): { aliases: number; count: number; first: number } {
  const { isAlias, visit } = yaml();
  let aliases = 0;
  let count = 0;
  let first = -1;
  visit(doc, {
    Node(_, node) {
      if (isAlias(node)) {
        aliases++;
        if (first < 0) first = node.range?.[0] ?? 0;
      } else if (!(node as { anchor?: string }).anchor) return;
      count++;
    },
  });
  return { aliases, count, first: Math.max(first, 0) };
}

/** How much larger than its text a YAML file's values may be through aliases. */
const EXPANSION = 4;
const maxExpansion = (textLength: number) => EXPANSION * textLength + (1 << 20);
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/**
 * JSON.parse, unless the text repeats a key (JSON.parse keeps the last one; `yaml` reports it):
 * then `undefined`. For invalid JSON, JSON.parse's message and, if it gives one, the offset.
 */
function readJson(text: string): { value: unknown } | { error: { offset?: number; message: string } } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const at = / in JSON at position (\d+)/.exec(message);
    // V8 appends the position, or a quote of the text; neither reads well after file:line:column.
    const short = message.replace(/ in JSON at position .*$|, (?:"|\.\.\.").*$/s, '');
    return { error: { offset: at ? Number(at[1]) : undefined, message: short } };
  }
  return countKeysInText(text) === countKeysInValue(value) ? { value } : undefined;
}

/** Object keys in valid JSON text: strings followed by a colon. */
function countKeysInText(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) {
    i++;
    while (text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
    let j = i + 1;
    while (j < text.length && ' \t\n\r'.includes(text[j])) j++;
    if (text.charCodeAt(j) === 58) n++;
  }
  return n;
}

/**
 * Without recursion: JSON.parse reads any depth, and a recursive count then ran out of stack at a
 * depth that depended on how deep the caller's stack already was (a parse thread's is not the
 * main thread's), so one file got two different problems.
 */
function countKeysInValue(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else {
      for (const key in v) {
        n++;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return n;
}

/** Gives each Issue of a file its line and column, parsing the file's YAML once more. */
export function locateIssues(file: string, text: string, issues: readonly Issue[]): Problem[] {
  const part = dataPart(file, text);
  if (!part.ok) return issues.map((issue) => toProblem(file, issue, 1, 1));
  const where = itemsApart(part.text, issues) ?? inDocument(positioned(part.text));
  // a Markdown body's first line: the line after the front matter's closing `---`
  const bodyLine = part.body === null ? 0 : positionOf(text, text.length - part.body.length).line;
  return issues.map((issue) => {
    if (issue.at === 'body' && part.body !== null) return toProblem(file, issue, bodyLine + (issue.line ?? 1) - 1, 1);
    const { line, col } = where(issue);
    return toProblem(file, issue, line + part.lineOffset, col);
  });
}

/** Where in the data part an Issue points: its line and column there. */
type Locate = (issue: Issue) => { line: number; col: number };

/** Issues located in `positioned`'s document of the whole data part. */
function inDocument({ doc, lineCounter }: ReturnType<typeof positioned>): Locate {
  const { isSeq } = yaml();
  return (issue) => {
    const root = issue.item === null ? doc.contents : isSeq(doc.contents) ? (doc.contents.items[issue.item] as Node) : null;
    return lineCounter.linePos(offsetOf(root, issue.key, issue.at));
  };
}

/**
 * Where each line that begins an item of the list `text` holds starts (`-` at the first item's
 * indent), up to the one after item `last` (or all there are); null where the text holds no such
 * list. Found by yaml's own lexer, which reads the file as its parser does (a `-` in a quoted or
 * block scalar is part of it) at a few per cent of a parse's cost and next to no memory: it hands
 * over the source's text piece by piece, with control tokens of its own between them.
 */
function itemStarts(text: string, last: number): number[] | null {
  const { CST, Lexer } = yaml();
  const starts: number[] = [];
  let offset = 0;
  let lineStart = 0;
  let indent = 0;
  let atLineStart = true;
  let listIndent = -1;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'doc-mode' || type === 'scalar' || type === 'flow-error-end') continue;
    if (type === 'seq-item-ind' && atLineStart) {
      if (listIndent < 0) listIndent = indent;
      if (indent === listIndent && starts.push(lineStart) > last + 1) return starts;
    }
    offset += token.length;
    // (a block scalar's body is one token, its last line's break included)
    if (token.endsWith('\n')) {
      atLineStart = true;
      lineStart = offset;
      indent = 0;
    } else if (type === 'space' && atLineStart && offset - token.length === lineStart) {
      indent = token.length;
    } else if (type !== 'byte-order-mark') {
      atLineStart = false;
    }
  }
  return starts.length > 0 ? starts : null;
}

/**
 * The issues of a list file of more than 1 MiB, each located by parsing only the item it is in: a
 * 15 MiB list of records is not parsed whole (gigabytes of `yaml` nodes) to place the problems of
 * a few, wherever they are. Each item's text is parsed alone and kept only where it reads, without
 * an error, as exactly one item; its lines are counted from where it begins. Else null.
 */
function itemsApart(text: string, issues: readonly Issue[]): Locate | null {
  if (text.length < 1 << 20 || issues.length === 0) return null;
  const wanted = new Set<number>();
  for (const issue of issues) {
    if (issue.item === null) return null;
    wanted.add(issue.item);
  }
  const items = [...wanted].sort((a, b) => a - b);
  const starts = itemStarts(text, items[items.length - 1]);
  if (starts === null || items[items.length - 1] >= starts.length) return null;
  const { isSeq } = yaml();
  const located = new Map<number, { root: Node; firstLine: number; lineCounter: ReturnType<typeof positioned>['lineCounter'] }>();
  let line = 1;
  let counted = 0;
  for (const item of items) {
    const from = starts[item];
    const { doc, lineCounter } = positioned(text.slice(from, starts[item + 1] ?? text.length));
    if (doc.errors.length > 0 || !isSeq(doc.contents) || doc.contents.items.length !== 1) return null;
    for (let at = text.indexOf('\n', counted); at >= 0 && at < from; at = text.indexOf('\n', at + 1)) line++;
    counted = from;
    located.set(item, { root: doc.contents.items[0] as Node, firstLine: line, lineCounter });
  }
  return (issue) => {
    const { root, firstLine, lineCounter } = located.get(issue.item!)!;
    const { line: inItem, col } = lineCounter.linePos(offsetOf(root, issue.key, issue.at));
    return { line: firstLine + inItem - 1, col };
  };
}

let parsedForPositions = 0;
/** Characters parsed with `yaml` to place problems so far (the work locateIssues did, for tests to bound). */
export const charactersParsedForPositions = () => parsedForPositions;

/** The document of `text` and its lines (positions only: whether keys repeat was found when the file was read). */
function positioned(text: string) {
  parsedForPositions += text.length;
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  return { doc: parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false }), lineCounter };
}

function toProblem(file: string, issue: Issue, line: number, column: number): Problem {
  return { file, line, column, key: formatKey(issue.key), message: issue.message };
}

/**
 * Where the Issue points: the key itself, its value, or (for a missing key) the object.
 * Falls back to the nearest enclosing node if the path does not resolve.
 */
function offsetOf(root: unknown, path: Path, at: Issue['at']): number {
  const { isMap, isScalar, isSeq } = yaml();
  let node = root;
  let offset = start(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) return offset;
      const keyOffset = start(pair.key) ?? offset;
      if (i === path.length - 1 && at === 'key') return keyOffset;
      node = pair.value;
      // An empty value (`key:`) has no text of its own; point at its key.
      offset = isScalar(node) && node.value === null && node.source === '' ? keyOffset : (start(node) ?? keyOffset);
    } else if (isSeq(node) && typeof step === 'number' && step < node.items.length) {
      node = node.items[step];
      offset = start(node) ?? offset;
    } else {
      return offset;
    }
  }
  return offset;
}

function start(node: unknown): number | undefined {
  return (node as Node | null)?.range?.[0];
}
