// Reads a string table (src/store/format/string-table.ts). Read whole (the server), the text is
// one decode, then each string a slice of the decoded text, made when first asked for and kept.
// Read per need (the edge, whose isolate reads a column on an answer's request), the offsets are
// read when a string is first asked for, and each string is decoded alone from its bytes: a lookup
// that checks a few candidates or binary-searches an order decodes those strings, not the list's
// whole text. Once a scan has asked for enough of them that one decode of the whole text costs
// less, the rest is decoded whole, as the server does. Read whole but decoded later (the server's
// columns: a long text's decode is the largest piece of its start), the offsets are read and
// checked now, strings are decoded alone until decodeAll() decodes the text, once the server
// has started answering.
import type { Format } from '../format/sections.ts';
import { FormatError, type Fault } from '../format/sections.ts';
import type { StringList } from '../format/string-table.ts';
import { check, checkStarts, type Sections } from './sections.ts';
import { checkedOnce } from './per-need.ts';


/**
 * Decoding a string alone costs about as much as decoding this many bytes more of a text decoded
 * whole: once more strings than the text's bytes ÷ this have been decoded alone (a scan), the rest
 * is decoded whole. A list of long strings (the teasers) is then decoded alone whatever share of it
 * a lookup checks; a list of short ones (dates) whole once a scan has gone a little way.
 */
const ALONE_BYTES = 256;

export class StringTable implements StringList {
  /** the strings made so far, once one is asked for */
  private made: (string | undefined)[] | null = null;
  private text: string | null = null;
  /** set when strings are decoded alone: what a string that does not fit throws */
  private fault: Fault | null = null;
  /** strings decoded alone so far */
  private alone = 0;

  /** the text's UTF-8 once read, until it is decoded whole */
  private bytes: Uint8Array | null = null;

  /** UTF-16 starts (count + 1) */
  private starts: Uint32Array = NO_STARTS;
  /** byte starts (count + 1): checked to lie within `bytes`, in order, when strings are decoded alone */
  private byteStarts: Uint32Array = NO_STARTS;
  private odd: Map<number, string> = NO_ODD;

  private constructor(
    /**
     * the text's UTF-8 section, read when a string is first asked for (a file read in parts fetches
     * it then); let go of once the text is decoded whole (it holds the file's Sections, and so its bytes)
     */
    private textOf: (() => Uint8Array) | null,
    /**
     * reads the offsets and exceptions into `starts`, `byteStarts` and `odd`; per need (a count
     * given), when a string is first asked for: an answer that reads no string of the table (a
     * word list lookup) fetches neither them nor the text
     */
    private layout: (() => void) | null,
    /** the strings, when known without the offsets */
    private readonly count: number | undefined,
    private readonly format: Format,
    private readonly what: string,
    /** the text's length in UTF-8 bytes (its section's) */
    private readonly utf8Length: number,
  ) {}

  /**
   * The table in sections `first`, `first + 1`, `first + 2` of `s`; `what` names it in messages.
   * `copied`: its offsets are copied out of the file's bytes, and its text decoded now (the bytes
   * are then not held by the table). `fault`: decode each string alone when first asked for, and
   * throw `fault(problem)` then if it does not fit its offsets (without it, the text is decoded and
   * checked now, and a problem is a FormatError). `later`: laid out now, not read per need, and
   * decoded whole when decodeAll() is called (with `fault`, each string decoded alone until then).
   */
  static read(s: Sections, first: number, what: string, expected?: number, copied = false, fault?: Fault, later = false): StringTable {
    const format: Format = s.format;
    const lazy = fault !== undefined && !later && !copied && expected !== undefined;
    const layout = () => {
      // (read per need, the offsets, exceptions and text are made sure of in one round)
      if (lazy) s.need([first, first + 1, first + 2]);
      const offsets = s.u32(first + 1, `${what} offsets`, expected === undefined ? undefined : 2 * (expected + 1));
      check(offsets.length % 2 === 0 && offsets.length > 0, format, `whose ${what} offsets are not two lists`);
      const half = offsets.length / 2;
      const odd = new Map<number, string>();
      const list = s.json(first + 2, `${what} exceptions`);
      check(Array.isArray(list), format, `whose ${what} exceptions are not a list`);
      for (const entry of list as unknown[]) {
        check(Array.isArray(entry) && Number.isInteger(entry[0]) && entry[0] >= 0 && entry[0] < half - 1 && typeof entry[1] === 'string', format, `whose ${what} exceptions are not [index, string] pairs`);
        odd.set(entry[0] as number, entry[1] as string);
      }
      // every string's bytes lie within the text, so no string read alone reads outside it
      const alone = later || (fault !== undefined && !copied);
      if (alone) checkStarts(offsets.subarray(half), s.byteLength(first), format, `${what} byte offsets`);
      table.starts = copied ? offsets.slice(0, half) : offsets.subarray(0, half);
      // (read only to decode a string alone: a table decoded now does not hold the file for them)
      table.byteStarts = !alone ? NO_STARTS : copied ? offsets.slice(half, 2 * half) : offsets.subarray(half);
      table.odd = odd;
      table.layout = null;
    };
    const table: StringTable = new StringTable(() => s.u8(first, `${what} text`), lazy ? checkedOnce(fault, layout) : layout, expected, format, what, s.byteLength(first));
    if (!lazy) table.laidOut();
    if (!later && (copied || fault === undefined)) table.decode();
    else table.fault = fault ?? null;
    return table;
  }

  /** StringList.decodeAll: the whole text now, unless it is decoded already. */
  decodeAll(): void {
    this.decode();
  }

  /** Reads the offsets and exceptions if not read yet. */
  private laidOut(): void {
    if (this.layout !== null) this.layout();
  }

  private problem(): Error {
    const problem = `${this.format.what} file whose ${this.what} do not fit their text`;
    return this.fault ? this.fault(problem) : new FormatError(problem);
  }

  private utf8(): Uint8Array {
    return (this.bytes ??= this.textOf!());
  }

  /** The text, decoded once and checked against the offsets. */
  private decode(): string {
    if (this.text !== null) return this.text;
    this.laidOut();
    const text = DECODER.decode(this.utf8());
    const { starts } = this;
    let fits = starts.length > 0 && starts[0] === 0 && starts[starts.length - 1] === text.length;
    for (let i = 1; fits && i < starts.length; i++) if (starts[i] < starts[i - 1]) fits = false;
    if (!fits) throw this.problem();
    this.text = text;
    // decoded: the bytes are not needed any more, nor is the file
    this.bytes = EMPTY;
    this.textOf = null;
    return text;
  }

  /** String i decoded from its own bytes; checked to be as long as its UTF-16 offsets say. */
  private decodeAlone(i: number): string {
    const s = DECODER.decode(this.utf8().subarray(this.byteStarts[i], this.byteStarts[i + 1]));
    if (s.length !== this.starts[i + 1] - this.starts[i]) throw this.problem();
    this.alone++;
    return s;
  }

  get length(): number {
    if (this.count !== undefined) return this.count;
    this.laidOut();
    return this.starts.length - 1;
  }

  /**
   * StringList.containing: the needle searched in the whole text natively, each hit mapped to its
   * string by the starts. Decoded, the text is searched as it is, by the UTF-16 starts: a scan
   * of the strings would first make every one of them (a list's first scan makes them all, tens of
   * milliseconds at 100k dates). Read per need and not decoded, the needle's UTF-8 is searched in
   * the text's, by the byte starts: UTF-8 is self-synchronizing, so a well-formed needle's bytes
   * occur in a string's exactly where the needle occurs in it. Either way a hit across two
   * strings is none, and the strings held apart (`odd`, whose text holds U+FFFD for a lone
   * surrogate) are tested as strings. The starts lie in order within the text (checked when
   * read), so no search reads outside it. `afford` is asked, with the text's UTF-8 length however
   * it is held, before the search is made. Null when it declines, or the needle is not
   * well-formed (an empty needle, a lone surrogate).
   */
  containing(needle: string, afford: (bytes: number) => boolean): Uint32Array | null {
    if (needle.length === 0 || !needle.isWellFormed() || !afford(this.utf8Length)) return null;
    this.laidOut();
    if (this.text !== null) return this.containingIn(this.text, needle, this.starts, needle);
    const utf8 = this.utf8();
    return this.containingIn(Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength), Buffer.from(needle), this.byteStarts, needle);
  }

  /** containing's search: `key` in `text` (the strings' text as decoded or as UTF-8), by `starts` (its offsets in that text). */
  private containingIn<T extends string | Buffer>(text: T, key: T, starts: Uint32Array, needle: string): Uint32Array {
    const n = this.length;
    const found: number[] = [];
    // (typed as one of the two: string and Buffer indexOf take the same arguments)
    const find = (from: number) => (text as string).indexOf(key as string, from);
    let at = find(0);
    while (at !== -1) {
      // the string the hit starts in (the last whose start is at or before it)
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (starts[mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      // a hit across two strings is no hit: look again from the next unit
      if (at + key.length <= starts[lo + 1]) {
        if (!this.odd.has(lo)) found.push(lo);
        at = find(starts[lo + 1]);
      } else at = find(at + 1);
    }
    for (const [i, s] of this.odd) if (s.includes(needle)) found.push(i);
    if (this.odd.size > 0) found.sort((a, b) => a - b);
    return Uint32Array.from(found);
  }

  at(i: number): string {
    this.laidOut();
    // filled, not holey: a flat array, fast to index
    const made = (this.made ??= new Array<string | undefined>(this.length).fill(undefined));
    let s = made[i];
    if (s === undefined) {
      if (this.odd.size > 0 && this.odd.has(i)) s = this.odd.get(i)!;
      else if (this.text !== null || this.fault === null || this.alone * ALONE_BYTES >= this.byteStarts[this.length]) s = this.decode().slice(this.starts[i], this.starts[i + 1]);
      else s = this.decodeAlone(i);
      made[i] = s;
    }
    return s;
  }
}

const EMPTY = new Uint8Array(0);
const NO_STARTS = new Uint32Array(0);
const NO_ODD = new Map<number, string>();
/** (a string may start with U+FEFF: it is text, not a byte order mark to drop) */
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });
