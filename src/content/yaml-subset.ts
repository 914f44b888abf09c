// A fast reader for the plain subset of YAML that content files are mostly written in (block
// mappings and sequences, one-line scalars, one-line flow lists, literal block scalars). The
// `yaml` library needs ~150 µs for a typical event's front matter (15 s for 100,000 events);
// this needs ~15 µs, and ~2 µs per directory object. It returns exactly what `yaml` would (core
// schema, then toJS) or, for anything outside the subset or anything doubtful, `undefined`, and
// the caller falls back to `yaml`. So it may be incomplete, never different; yaml-subset.test.ts
// checks that property against `yaml` on generated documents.

/** Thrown (as a bare object, no stack) to abandon the fast path. */
const BAIL = { bail: true };

// Characters whose YAML treatment this reader does not reproduce (tabs, CR, BOM, C0/C1
// controls, Unicode line separators): their presence sends the whole file to `yaml`.
const UNSUPPORTED_CHARS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
// Core schema scalars (yaml/dist/schema/core): null, bool and decimal int are resolved here;
// octal, hex and the float forms are left to `yaml`.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const TRUE = /^(?:[Tt]rue|TRUE)$/;
const FALSE = /^(?:[Ff]alse|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const OTHER_NUMBER =
  /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
// A plain scalar cannot start with an indicator character (YAML 1.2 §7.3.3): one of these, or
// `-`, `?` or `:` followed by a space or nothing.
const INDICATORS = new Uint8Array(128);
for (const ch of '[]{}#&*!|>\'"%@`,') INDICATORS[ch.charCodeAt(0)] = 1;

/**
 * `depth`: how deep the value's lists and mappings nest, counted as checkValue counts (a list or
 * mapping at the top is 1 deep, one inside it 2, an empty one too), so the caller need not walk
 * the value to learn it.
 */
export function parseYamlSubset(text: string): { value: unknown; depth: number } | undefined {
  if (UNSUPPORTED_CHARS.test(text)) return undefined;
  try {
    const parser = new SubsetParser(text);
    const value = parser.document();
    return { value, depth: parser.deepest };
  } catch (e) {
    // Nesting deep enough to exhaust the stack is `yaml`'s to judge as well.
    if (e === BAIL || e instanceof RangeError) return undefined;
    throw e;
  } finally {
    if (lines.end.length > FEW_LINES) lines = linesFor(256);
  }
}

/**
 * Where the subset reader stops in a text it declines: the offset of the line it was reading
 * (where a mistake, or YAML beyond the subset, begins), or -1 where it reads the whole text.
 */
export function subsetStop(text: string): number {
  const unsupported = UNSUPPORTED_CHARS.exec(text);
  if (unsupported !== null) return unsupported.index;
  const parser = new SubsetParser(text);
  try {
    parser.document();
    return -1;
  } catch (e) {
    if (e === BAIL || e instanceof RangeError) return parser.stop();
    throw e;
  }
}

/**
 * Works on line offsets into the text (no per-line strings): `indent[i]` and `at[i]` (where the
 * line's content starts) may be moved right, to re-read a compact `- key: value` line as the
 * mapping it starts.
 */
class SubsetParser {
  private readonly indent: Int32Array;
  private readonly at: Int32Array;
  private readonly end: Int32Array;
  private readonly n: number;
  private i = 0;
  /** the hash of the key keyEnd found last */
  private keyHash = 0;
  /** how deep the list or mapping being read is (checkValue's depth), and the deepest so far */
  private level = 0;
  deepest = 0;

  constructor(private readonly text: string) {
    let n = 0;
    for (let start = 0; ; ) {
      let nl = text.indexOf('\n', start);
      if (nl < 0) nl = text.length;
      let p = start;
      while (text.charCodeAt(p) === 32) p++;
      if (n === lines.end.length) lines = grown(lines);
      lines.indent[n] = p - start;
      lines.at[n] = Math.min(p, nl);
      lines.end[n++] = nl;
      if (nl === text.length) break;
      start = nl + 1;
    }
    ({ indent: this.indent, at: this.at, end: this.end } = lines);
    this.n = n;
  }

  /** The offset where the line being read starts its content. */
  stop(): number {
    return this.at[Math.min(this.i, this.n - 1)];
  }

  document(): unknown {
    this.skipBlank();
    if (this.i >= this.n) return null;
    if (this.indent[this.i] !== 0) throw BAIL;
    const value = this.block(0);
    this.skipBlank();
    if (this.i < this.n) throw BAIL;
    return value;
  }

  /** Skips empty, blank and comment lines. */
  private skipBlank(): void {
    while (this.i < this.n) {
      const a = this.at[this.i];
      if (a !== this.end[this.i] && this.text.charCodeAt(a) !== 35 /* # */) break;
      this.i++;
    }
  }

  /** A mapping or sequence whose first line (the current one) is indented by `indent`. */
  private block(indent: number): unknown {
    if (this.isSeq(this.at[this.i], this.end[this.i])) return this.seq(indent);
    if (this.keyEnd(this.at[this.i], this.end[this.i]) >= 0) return this.map(indent);
    throw BAIL;
  }

  private map(indent: number): Record<string, unknown> {
    this.reach(++this.level);
    const value = this.mapBody(indent);
    this.level--;
    return value;
  }

  private seq(indent: number): unknown[] {
    this.reach(++this.level);
    const value = this.seqBody(indent);
    this.level--;
    return value;
  }

  private reach(level: number): void {
    if (level > this.deepest) this.deepest = level;
  }

  private mapBody(indent: number): Record<string, unknown> {
    const { text } = this;
    // a mapping of the first two levels (a record's) starts as a dictionary when the last one did (wideRecords)
    const record = this.level <= 2;
    let obj: Record<string, unknown> = record && wideRecords ? newDictionary() : {};
    let count = 0;
    for (;;) {
      const a = this.at[this.i];
      const e = this.end[this.i];
      const colon = this.keyEnd(a, e);
      if (colon < 0) throw BAIL;
      const key = keyAt(text, a, colon, this.keyHash);
      // Duplicate keys are an error in `yaml`; keys like `null:` or `true:` are not strings (keyAt's).
      if (key === null || Object.hasOwn(obj, key)) throw BAIL;
      if (++count === DICTIONARY_KEYS && !(record && wideRecords)) obj = dictionaryOf(obj);
      let v = colon + 1;
      while (v < e && text.charCodeAt(v) === 32) v++;
      if (v === e) {
        this.i++;
        this.skipBlank();
        if (this.i < this.n && this.indent[this.i] > indent) {
          obj[key] = this.block(this.indent[this.i]);
        } else if (this.i < this.n && this.indent[this.i] === indent && this.isSeq(this.at[this.i], this.end[this.i])) {
          obj[key] = this.seq(indent); // a list may sit at its key's own indentation
        } else {
          obj[key] = null;
        }
      } else {
        obj[key] = this.inline(v, e, indent);
      }
      this.skipBlank();
      if (this.i >= this.n || this.indent[this.i] < indent) {
        if (record) wideRecords = count >= DICTIONARY_KEYS;
        return obj;
      }
      if (this.indent[this.i] > indent) throw BAIL; // a continued scalar or a misplaced block
    }
  }

  private seqBody(indent: number): unknown[] {
    const { text } = this;
    const arr: unknown[] = [];
    for (;;) {
      const a = this.at[this.i];
      const e = this.end[this.i];
      let v = a + 1;
      while (v < e && text.charCodeAt(v) === 32) v++;
      if (v === e) {
        this.i++;
        this.skipBlank();
        const nested = this.i < this.n && this.indent[this.i] > indent;
        arr.push(nested ? this.block(this.indent[this.i]) : null);
      } else if (this.isSeq(v, e) || this.keyEnd(v, e) >= 0) {
        // A compact collection (`- id: 1`): its column is where its first key starts, which is
        // what YAML uses too; the line is re-read as if it were indented that far.
        const inner = indent + (v - a);
        this.indent[this.i] = inner;
        this.at[this.i] = v;
        arr.push(this.block(inner));
      } else {
        arr.push(this.inline(v, e, indent));
      }
      this.skipBlank();
      if (this.i >= this.n || this.indent[this.i] < indent) return arr;
      if (this.indent[this.i] > indent) throw BAIL;
      if (!this.isSeq(this.at[this.i], this.end[this.i])) return arr;
    }
  }

  /** `- ` or a lone `-` at `a`. */
  private isSeq(a: number, e: number): boolean {
    return this.text.charCodeAt(a) === 45 /* - */ && (a + 1 === e || this.text.charCodeAt(a + 1) === 32);
  }

  /**
   * The offset of the `:` ending a simple key at `a` (followed by a space or the line end), or -1;
   * `keyHash` is then a hash of the key's characters (knownKey's).
   */
  private keyEnd(a: number, e: number): number {
    const { text } = this;
    let c = text.charCodeAt(a);
    if (!(c < 128 && KEY_START[c] === 1)) return -1;
    let hash = c;
    let p = a + 1;
    for (; p < e; p++) {
      c = text.charCodeAt(p);
      if (!(c < 128 && KEY_CHAR[c] === 1)) break;
      hash = (hash * 31 + c) | 0;
    }
    if (c !== 58 /* : */ || p >= e) return -1;
    this.keyHash = hash;
    return p + 1 === e || text.charCodeAt(p + 1) === 32 ? p : -1;
  }

  /** A value written on its key's (or dash's) line at [v, e); consumes that line, or a block scalar's lines. */
  private inline(v: number, e: number, parentIndent: number): unknown {
    const value = this.text.slice(v, e);
    const c = value.charCodeAt(0);
    if (c === 124 /* | */) return this.literal(trimSpaces(value), parentIndent);
    // a flow list or mapping is one deeper than the one holding it
    if (c === 91 || c === 123) this.reach(this.level + 1);
    // read before the line is consumed: a value declined stops the reader on its own line (subsetStop)
    const read = c === 34 /* " */ ? doubleQuoted(value) : c === 39 /* ' */ ? singleQuoted(value) : c === 91 /* [ */ ? flowSeq(value) : c === 123 /* { */ ? emptyMapping(value) : plain(value, false);
    this.i++;
    return read;
  }

  /** A literal block scalar (`|` keeps one final line feed, `|-` none). */
  private literal(header: string, parentIndent: number): string {
    if (header !== '|' && header !== '|-') throw BAIL;
    const { at, end, indent } = this;
    const first = ++this.i;
    if (first >= this.n || at[first] === end[first]) throw BAIL; // leading empty lines: left to `yaml`
    const blockIndent = indent[first];
    if (blockIndent <= parentIndent) throw BAIL;
    let last = first;
    for (; this.i < this.n; this.i++) {
      if (at[this.i] === end[this.i]) {
        if (indent[this.i] > 0) throw BAIL; // whitespace-only lines: left to `yaml`
        continue;
      }
      if (indent[this.i] < blockIndent) break;
      last = this.i;
    }
    // Without a line break after it, the last line would get none in `yaml`; rare, so declined.
    if (last === this.n - 1) throw BAIL;
    // Every content line has at least blockIndent spaces and empty lines have none, so removing
    // up to blockIndent spaces after each line start removes exactly the indentation.
    const lines = this.text.slice(at[first] - blockIndent, end[last]).replace(indentation(blockIndent), '');
    return header === '|' ? `${lines}\n` : lines;
  }
}

/**
 * The parser's line tables (indent, at, end), kept from file to file (one parse runs at a time):
 * made per file they were much of its garbage. A table grown past FEW_LINES goes after its parse.
 */
interface LineTables {
  indent: Int32Array;
  at: Int32Array;
  end: Int32Array;
}
const FEW_LINES = 1 << 14;
const linesFor = (n: number): LineTables => ({ indent: new Int32Array(n), at: new Int32Array(n), end: new Int32Array(n) });
let lines = linesFor(256);
function grown(t: LineTables): LineTables {
  const next = linesFor(t.end.length * 2);
  next.indent.set(t.indent);
  next.at.set(t.at);
  next.end.set(t.end);
  return next;
}

/**
 * A mapping that reaches this many keys goes on as a dictionary (a hash table). Made key by key
 * as usual, each new order of keys is a new chain of V8 hidden classes (a map and a copy of its
 * descriptors per key): event files leave out optional keys in so many ways that nearly every
 * event's front matter is an order of its own, and making those classes would be most of its reading.
 * The first keys (an event's first few, a directory object's all) repeat a few orders, whose
 * classes are made once.
 */
const DICTIONARY_KEYS = 9;

/**
 * Whether the last mapping of the first two levels (a record: the document's, or an item of its list) reached
 * DICTIONARY_KEYS: records of a file, and files of a kind, are alike, so the next one starts as a
 * dictionary and skips the copy (dictionaryOf). A guess either way changes no value read.
 */
let wideRecords = false;

/** An empty object that is a dictionary, an ordinary object to a reader. */
function newDictionary(): Record<string, unknown> {
  // deleting a property other than the last one added turns an object into a dictionary, and it stays one
  const dictionary: Record<string, unknown> = { a: 0, b: 0 };
  delete dictionary.a;
  delete dictionary.b;
  return dictionary;
}

/** A copy of `obj` made as a dictionary: the same keys in the same order. */
function dictionaryOf(obj: Record<string, unknown>): Record<string, unknown> {
  const dictionary = newDictionary();
  for (const key in obj) dictionary[key] = obj[key];
  return dictionary;
}

/**
 * Keys seen before, by a hash of their characters (keyEnd's). Records repeat the same few keys;
 * reusing one string saves slicing it, V8 interning it as a property name again for every object,
 * and checking it again. Two keys of one hash take turns.
 */
const KEY_SLOTS = 1024;
const knownKeys: (string | undefined)[] = new Array<string | undefined>(KEY_SLOTS).fill(undefined);

/** The key at [a, end), or null when it is no key a mapping here may have (`null:`, `true:`, `__proto__`). */
function keyAt(text: string, a: number, end: number, hash: number): string | null {
  const slot = hash & (KEY_SLOTS - 1);
  const known = knownKeys[slot];
  if (known !== undefined && known.length === end - a && sameAt(text, a, known)) return known;
  const key = text.slice(a, end);
  if (key === '__proto__' || !isStringKey(key)) return null;
  knownKeys[slot] = key;
  return key;
}

/** Whether `text` holds `key` at `a` (a short key: a loop the compiler inlines beats a call of startsWith). */
function sameAt(text: string, a: number, key: string): boolean {
  for (let j = 0; j < key.length; j++) if (text.charCodeAt(a + j) !== key.charCodeAt(j)) return false;
  return true;
}

/**
 * Whether a key reads as a string (not `null:` or `true:`). Remembered for the keys records
 * repeat: `title`, `name` or `teaser` would otherwise run the null and boolean patterns each time.
 */
const stringKeys = new Set<string>();
function isStringKey(key: string): boolean {
  if (stringKeys.has(key)) return true;
  if (typeof scalar(key) !== 'string') return false;
  if (stringKeys.size < 1024) stringKeys.add(key);
  return true;
}

const indentations: RegExp[] = [];
function indentation(n: number): RegExp {
  return (indentations[n] ??= new RegExp(`^ {1,${n}}`, 'gm'));
}

/** What a simple key starts with (a letter or `_`) and goes on with (and digits, `-`), by char code. */
const KEY_START = new Uint8Array(128);
const KEY_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  KEY_START[c] = letter || c === 95 ? 1 : 0;
  KEY_CHAR[c] = letter || c === 95 || (c >= 48 && c <= 57) || c === 45 ? 1 : 0;
}

/** Trims YAML white space (tabs never get here), not the wider set String.prototype.trim knows. */
function trimSpaces(s: string): string {
  let a = 0;
  let b = s.length;
  while (s.charCodeAt(a) === 32) a++;
  while (b > a && s.charCodeAt(b - 1) === 32) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** The resolved value of a plain scalar (core schema). */
function scalar(s: string): unknown {
  const c = s.charCodeAt(0);
  // Most scalars are text starting with a letter that no null, boolean or number starts with.
  if (c >= 65 && !NON_STRING_START[c]) return s;
  // A digit starts no null or boolean: an id is read, and a timestamp declined, by one pattern at most.
  if (c >= 48 && c <= 57) {
    if (allDigits(s)) return safeInt(s);
    if (OTHER_NUMBER.test(s)) throw BAIL;
    return s;
  }
  if (NULL.test(s)) return null;
  if (TRUE.test(s)) return true;
  if (FALSE.test(s)) return false;
  if (INT.test(s)) return safeInt(s);
  if (OTHER_NUMBER.test(s)) throw BAIL;
  return s;
}

function safeInt(s: string): number {
  const n = parseInt(s, 10);
  if (!Number.isSafeInteger(n)) throw BAIL;
  return n;
}

/** INT's test for a string that starts with a digit. */
function allDigits(s: string): boolean {
  for (let j = 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Characters from `A` up that can start a null or a boolean. */
const NON_STRING_START: boolean[] = [];
for (const ch of 'nNtTfF~') NON_STRING_START[ch.charCodeAt(0)] = true;

/** `{}`, the one flow mapping the subset reads. */
function emptyMapping(value: string): Record<string, never> {
  if (trimSpaces(value) !== '{}') throw BAIL;
  return {};
}

function indicatorStart(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c === 45 || c === 63 || c === 58) return s.length === 1 || s.charCodeAt(1) === 32;
  return c < 128 && INDICATORS[c] === 1;
}

function plain(text: string, inFlow: boolean): unknown {
  const s = trimSpaces(text);
  if (s === '' || indicatorStart(s)) throw BAIL;
  // `: ` starts a mapping, ` #` a comment, and a trailing `:` is a key; all left to `yaml`.
  if (s.charCodeAt(s.length - 1) === 58 /* : */ || hasMarker(s, inFlow)) throw BAIL;
  return scalar(s);
}

/** Whether `s` holds `: ` or ` #`, or (`inFlow`) one of `[]{},#`: one pass over it. */
function hasMarker(s: string, inFlow: boolean): boolean {
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c > 58) {
      if (inFlow && (c === 91 || c === 93 || c === 123 || c === 125)) return true;
    } else if (c === 58) {
      if (s.charCodeAt(j + 1) === 32) return true;
    } else if (c === 32) {
      if (s.charCodeAt(j + 1) === 35) return true;
    } else if (inFlow && (c === 44 || c === 35)) return true;
  }
  return false;
}

/** The text after a closing quote may only be spaces. */
function afterQuote(text: string, close: number): void {
  for (let j = close + 1; j < text.length; j++) if (text.charCodeAt(j) !== 32) throw BAIL;
}

function doubleQuoted(text: string): string {
  let escaped = false;
  let j = 1;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) break;
    if (c === 92 /* \ */) {
      // The escapes JSON shares with YAML; YAML's others (\x, \e, \N, \_, …) go to `yaml`.
      if (!'"\\/bfnrtu'.includes(text[j + 1] ?? '')) throw BAIL;
      escaped = true;
      j++;
    }
  }
  if (j >= text.length) throw BAIL; // continues on the next line
  afterQuote(text, j);
  if (!escaped) return text.slice(1, j);
  try {
    return JSON.parse(text.slice(0, j + 1)) as string;
  } catch {
    throw BAIL; // e.g. a malformed \u escape: `yaml` words the error
  }
}

function singleQuoted(text: string): string {
  let out = '';
  let from = 1;
  for (;;) {
    const q = text.indexOf("'", from);
    if (q < 0) throw BAIL;
    out += text.slice(from, q);
    if (text.charCodeAt(q + 1) === 39) {
      out += "'";
      from = q + 2;
      continue;
    }
    afterQuote(text, q);
    return out;
  }
}

function flowSeq(text: string): unknown[] {
  const s = trimSpaces(text);
  if (s.charCodeAt(s.length - 1) !== 93 /* ] */) throw BAIL;
  const inner = s.slice(1, -1);
  if (trimSpaces(inner) === '') return [];
  return inner.split(',').map((item) => plain(trimSpaces(item), true));
}
