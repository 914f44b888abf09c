// Reads a string table (src/store/format/string-table.ts): one decode, then each string a slice of
// the decoded text, made when first asked for and kept.
import type { Format } from '../format/sections.ts';
import type { StringList } from '../format/string-table.ts';
import { check, type Sections } from './sections.ts';

export class StringTable implements StringList {
  /** the strings made so far, once one is asked for */
  private made: (string | undefined)[] | null = null;

  private constructor(
    private readonly text: string,
    private readonly starts: Uint32Array,
    private readonly odd: Map<number, string>,
  ) {}

  /**
   * The table in sections `first`, `first + 1`, `first + 2` of `s`; `what` names it in messages.
   * `copied`: its offsets are copied out of the file's bytes (which are then not held by the table).
   */
  static read(s: Sections, first: number, what: string, expected?: number, copied = false): StringTable {
    const format: Format = s.format;
    const offsets = s.u32(first + 1, `${what} offsets`, expected === undefined ? undefined : expected + 1);
    const starts = copied ? offsets.slice() : offsets;
    const text = new TextDecoder().decode(s.u8(first, `${what} text`));
    check(starts.length > 0 && starts[0] === 0 && starts[starts.length - 1] === text.length, format, `whose ${what} do not fit their text`);
    for (let i = 1; i < starts.length; i++) check(starts[i] >= starts[i - 1], format, `whose ${what} do not fit their text`);
    const odd = new Map<number, string>();
    const list = s.json(first + 2, `${what} exceptions`);
    check(Array.isArray(list), format, `whose ${what} exceptions are not a list`);
    for (const entry of list as unknown[]) {
      check(Array.isArray(entry) && Number.isInteger(entry[0]) && entry[0] >= 0 && entry[0] < starts.length - 1 && typeof entry[1] === 'string', format, `whose ${what} exceptions are not [index, string] pairs`);
      odd.set(entry[0] as number, entry[1] as string);
    }
    return new StringTable(text, starts, odd);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  at(i: number): string {
    const made = (this.made ??= slots(this.length));
    let s = made[i];
    if (s === undefined) {
      s = this.odd.size > 0 && this.odd.has(i) ? this.odd.get(i)! : this.text.slice(this.starts[i], this.starts[i + 1]);
      made[i] = s;
    }
    return s;
  }
}

/** `n` empty slots in a flat array: `new Array(n)` of 100k is a dictionary in V8, slow to index. */
function slots(n: number): undefined[] {
  const out: undefined[] = [];
  for (let i = 0; i < n; i++) out.push(undefined);
  return out;
}
