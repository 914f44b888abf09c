// Reads a string table (src/store/format/string-table.ts): one decode, then each string a slice of
// the decoded text, made when first asked for and kept. A table read per need (the edge, whose
// isolate reads a column on an answer's request) is decoded when a string is first asked for: an
// answer that reads only the folded values of a column does not decode its values too.
import type { Format } from '../format/sections.ts';
import { FormatError } from '../format/sections.ts';
import type { StringList } from '../format/string-table.ts';
import { check, type Sections } from './sections.ts';

/** What a table decoded when first read throws when its text does not fit its offsets: the file named. */
export type Fault = (problem: string) => Error;

export class StringTable implements StringList {
  /** the strings made so far, once one is asked for */
  private made: (string | undefined)[] | null = null;
  private text: string | null = null;
  /** set when the text is decoded when first read: what a text that does not fit throws */
  private fault: Fault | null = null;

  private constructor(
    /** the text's UTF-8, until it is decoded */
    private bytes: Uint8Array,
    private readonly starts: Uint32Array,
    private readonly odd: Map<number, string>,
    private readonly format: Format,
    private readonly what: string,
  ) {}

  /**
   * The table in sections `first`, `first + 1`, `first + 2` of `s`; `what` names it in messages.
   * `copied`: its offsets are copied out of the file's bytes, and its text decoded now (the bytes
   * are then not held by the table). `fault`: decode the text when a string is first asked for,
   * and throw `fault(problem)` then if it does not fit the offsets (without it, the text is
   * decoded and checked now, and a problem is a FormatError).
   */
  static read(s: Sections, first: number, what: string, expected?: number, copied = false, fault?: Fault): StringTable {
    const format: Format = s.format;
    const offsets = s.u32(first + 1, `${what} offsets`, expected === undefined ? undefined : expected + 1);
    const starts = copied ? offsets.slice() : offsets;
    const odd = new Map<number, string>();
    const list = s.json(first + 2, `${what} exceptions`);
    check(Array.isArray(list), format, `whose ${what} exceptions are not a list`);
    for (const entry of list as unknown[]) {
      check(Array.isArray(entry) && Number.isInteger(entry[0]) && entry[0] >= 0 && entry[0] < starts.length - 1 && typeof entry[1] === 'string', format, `whose ${what} exceptions are not [index, string] pairs`);
      odd.set(entry[0] as number, entry[1] as string);
    }
    const table = new StringTable(s.u8(first, `${what} text`), starts, odd, format, what);
    if (copied || fault === undefined) table.decode();
    else table.fault = fault;
    return table;
  }

  /** The text, decoded once and checked against the offsets. */
  private decode(): string {
    if (this.text !== null) return this.text;
    const text = new TextDecoder().decode(this.bytes);
    const { starts } = this;
    let fits = starts.length > 0 && starts[0] === 0 && starts[starts.length - 1] === text.length;
    for (let i = 1; fits && i < starts.length; i++) if (starts[i] < starts[i - 1]) fits = false;
    if (!fits) {
      const problem = `${this.format.what} file whose ${this.what} do not fit their text`;
      throw this.fault ? this.fault(problem) : new FormatError(problem);
    }
    this.text = text;
    // decoded: the bytes are not needed any more
    this.bytes = EMPTY;
    return text;
  }

  get length(): number {
    return this.starts.length - 1;
  }

  at(i: number): string {
    // filled, not holey: a flat array, fast to index
    const made = (this.made ??= new Array<string | undefined>(this.length).fill(undefined));
    let s = made[i];
    if (s === undefined) {
      s = this.odd.size > 0 && this.odd.has(i) ? this.odd.get(i)! : this.decode().slice(this.starts[i], this.starts[i + 1]);
      made[i] = s;
    }
    return s;
  }
}

const EMPTY = new Uint8Array(0);
