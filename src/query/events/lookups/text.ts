// String lookups on a text column, and `contains`/`startswith` on the ISO text of a timestamp.
//
// Each lookup is first answered in the space of distinct values, then mapped to rows:
// - exact, iexact, startswith, istartswith: binary search in the values sorted by (folded) text;
//   exact, no verification.
// - contains, icontains, endswith, iendswith, regex, iregex: the trigram index narrows the values
//   to candidates, which are verified one by one (needles under 3 characters, patterns without a
//   usable literal and small columns scan every distinct value instead; a contains scan searches
//   the values' whole text at once, string-table.ts).
// - icontains of a needle without a separator, on a column read in parts that has word lists (an
//   edge isolate's long text, word-lists.ts): the values of the words that contain it; exact.
// Null fields have no value id, so they never match.
//
// Every loop here is charged to the request (work-costs.ts) under the condition's parameter:
// values visited, characters searched, the regex automaton's steps, candidates sieved, rows
// gathered.
import { fold } from '../../../store/format/fold.ts';
import { withinWords } from '../../../store/format/word-lists.ts';
import type { TextColumn } from '../indexes/text-column.ts';
import { type RowSet } from '../indexes/rowset.ts';
import { ALL, type TrigramQuery } from '../indexes/trigram.ts';
import { TEST_COST, type Condition } from './condition.ts';
import type { Matches } from '../matches.ts';
import { literalAlternatives, literalSequences, matchesSequence, requiredLiterals } from './regex-literals.ts';
import type { StringLookup } from '../catalog.ts';
import type { Regex } from '../../regex/regex.ts';
import { WorkTally, type Work } from '../../work-tally.ts';
import { textCost, WORK } from '../work-costs.ts';

export type TextOp = 'exact' | StringLookup;

export interface TextOptions {
  /** false for columns where trigrams do not narrow anything down (ISO timestamps) */
  trigrams: boolean;
  /** candidate lists this short are tested row by row, without consulting an index */
  fewRows: number;
}

type Mode = 'sorted' | 'words' | 'trigram' | 'scan';

const CASE_INSENSITIVE = new Set<TextOp>(['iexact', 'icontains', 'istartswith', 'iendswith']);

/** the characters that fold to an `i` RE2 does not match case-insensitively with `i` */
const DOTTED_OR_DOTLESS_I = /[\u0130\u0131]/;

export class TextCondition implements Condition {
  readonly testCost: number;
  private readonly key: string;
  private readonly folded: boolean;
  private readonly mode: Mode;
  private readonly query: TrigramQuery;
  /** verified matching value ids over the whole column, once computed */
  private matched: ArrayLike<number> | null = null;

  constructor(
    readonly param: string,
    private readonly column: TextColumn,
    private readonly op: TextOp,
    needle: string,
    /** the compiled pattern of regex/iregex, asked for only when the engine must run */
    private readonly regex: (() => Regex) | null,
    private readonly options: TextOptions,
  ) {
    this.folded = CASE_INSENSITIVE.has(op);
    this.key = this.folded ? fold(needle) : needle;
    this.testCost = regex ? TEST_COST.regex : TEST_COST.string;
    if (op === 'exact' || op === 'iexact' || op === 'startswith' || op === 'istartswith') {
      this.mode = 'sorted';
      this.query = ALL;
      return;
    }
    if (op === 'icontains' && column.hasWords && withinWords(this.key)) {
      this.mode = 'words';
      this.query = ALL;
      return;
    }
    // what every matching folded text contains
    this.query =
      regex !== null
        ? requiredLiterals(needle, op === 'iregex')
        : { kind: 'run', text: fold(needle), atStart: false, atEnd: op === 'endswith' || op === 'iendswith' };
    // (a column with few distinct values has no trigram index: scanning them is as quick)
    const indexable = options.trigrams && column.hasTrigrams && hasTrigram(this.query);
    this.mode = indexable ? 'trigram' : 'scan';
  }

  /** Whether value `v` matches, counting the work into the tally. Built on first use: it may need the folded values. */
  private get test(): (v: number, work: Work) => boolean {
    return (this.tester ??= makeTest(this.column, this.op, this.key, this.regex, this.query));
  }
  private tester: ((v: number, work: Work) => boolean) | null = null;

  estimate(): number {
    const perValue = this.column.rowsPerValue;
    switch (this.mode) {
      case 'sorted':
        return Math.ceil(this.sortedValues().length * perValue);
      case 'words':
        return Math.ceil(this.matching().length * perValue);
      case 'trigram':
        return Math.ceil(this.counted((work) => this.column.trigrams.estimate(this.query, work)) * perValue);
      case 'scan':
        return this.column.nonNullRows;
    }
  }

  rows(lo: number, hi: number): RowSet {
    const whole = lo === 0 && hi >= this.column.rowCount;
    const values = whole ? this.matching() : this.matchingIn(lo, hi);
    return this.counted((work) => this.column.rowsOf(values, lo, hi, work));
  }

  /** As rows(), as a count and pages, without sorting every matching row (see matches.ts). */
  matches(lo: number, hi: number): Matches {
    const whole = lo === 0 && hi >= this.column.rowCount;
    const values = whole ? this.matching() : this.matchingIn(lo, hi);
    return this.counted((work) => this.column.unionOf(values, lo, hi, work, this.param));
  }

  filter(candidates: RowSet): RowSet {
    const rowValue = this.column.rowValue;
    const out = new Uint32Array(candidates.length);
    let k = 0;
    // Testing the candidates directly beats computing the whole match set when they are fewer
    // than the values that set would have to look at (not the word lists' set: its values are
    // not tested, and a test reads the text they spare)
    if (this.matched === null && this.mode !== 'words' && (candidates.length <= this.options.fewRows || candidates.length < this.valuesToVisit())) {
      const test = this.test;
      return this.counted((work) => {
        for (let i = 0; i < candidates.length; i++) {
          const r = candidates[i];
          const v = rowValue[r];
          if (v >= 0 && test(v, work)) out[k++] = r;
        }
        return out.subarray(0, k);
      });
    }
    const matched = this.matching();
    this.counted((work) => work.add(matched.length * WORK.candidate + (this.column.valueCount >>> 3)));
    const mark = new Uint8Array(this.column.valueCount + 1); // slot 0 is the null value id -1
    for (let i = 0; i < matched.length; i++) mark[matched[i] + 1] = 1;
    for (let i = 0; i < candidates.length; i++) {
      const r = candidates[i];
      out[k] = r;
      k += mark[rowValue[r] + 1];
    }
    return out.subarray(0, k);
  }

  /** how many distinct values computing the whole match set inspects */
  private valuesToVisit(): number {
    switch (this.mode) {
      case 'sorted':
        return this.sortedValues().length;
      case 'words':
        return this.matching().length;
      case 'trigram':
        return this.counted((work) => this.column.trigrams.estimate(this.query, work));
      case 'scan':
        return this.column.valueCount;
    }
  }

  private sortedCache: Uint32Array | null = null;
  private sortedValues(): Uint32Array {
    const whole = this.op === 'exact' || this.op === 'iexact';
    return (this.sortedCache ??= this.counted((work) => this.column.valuesWithPrefix(this.key, this.folded, whole, work)));
  }

  private matching(): ArrayLike<number> {
    return (this.matched ??= this.matchingIn(0, Infinity));
  }

  /** matching value ids that have a row in [lo, hi) (hi = Infinity: all) */
  private matchingIn(lo: number, hi: number): ArrayLike<number> {
    if (this.mode === 'sorted') return this.sortedValues();
    if (this.mode === 'words') return (this.matched ??= this.counted((work) => this.column.valuesWithWord(this.key, work)));
    const col = this.column;
    const test = this.test;
    const narrow = hi !== Infinity;
    const out: number[] = [];
    return this.counted((work) => {
      const candidates = this.mode === 'trigram' ? col.trigrams.candidates(this.query, work) : null;
      if (candidates === null) {
        const n = col.valueCount;
        work.add(n * WORK.value);
        // charged, before the search, as the scan it spares: a test of every value over its text.
        // One search of the whole text cannot stop partway, so where the request cannot afford
        // all of it the values are tested one by one, which stops within a step of the limit.
        const afford = (bytes: number) => {
          const units = n * WORK.text + (((bytes + n * this.key.length) * WORK.textSixteen) >>> 4);
          if (units > work.left) return false;
          work.add(units);
          return true;
        };
        const found = this.op === 'contains' || this.op === 'icontains' ? this.containing(afford) : null;
        if (found !== null) {
          for (const v of found) if (!narrow || col.hasRowIn(v, lo, hi)) out.push(v);
          return out;
        }
        for (let v = 0; v < n; v++) {
          if ((!narrow || col.hasRowIn(v, lo, hi)) && test(v, work)) out.push(v);
        }
      } else {
        work.add(candidates.length * WORK.value);
        for (let i = 0; i < candidates.length; i++) {
          const v = candidates[i];
          if ((!narrow || col.hasRowIn(v, lo, hi)) && test(v, work)) out.push(v);
        }
      }
      return out;
    });
  }

  /** The values containing the key, found in their whole text where the list can (StringList.containing), else null. */
  private containing(afford: (bytes: number) => boolean): Uint32Array | null {
    const texts = this.folded ? this.column.folded : this.column.values;
    return texts.containing?.(this.key, afford) ?? null;
  }

  /** Runs `task` with a tally of this condition's parameter, charging all it counted when it ends. */
  private counted<T>(task: (work: WorkTally) => T): T {
    const work = new WorkTally(this.param);
    const result = task(work);
    work.settle();
    return result;
  }
}

/** A test of what a trigram query requires, on folded text; null when it requires nothing. */
function literalCheck(q: TrigramQuery): ((folded: string) => boolean) | null {
  switch (q.kind) {
    case 'all':
      return null;
    case 'run': {
      const { text, atStart, atEnd } = q;
      if (atStart && atEnd) return (s) => s === text;
      if (atStart) return (s) => s.startsWith(text);
      if (atEnd) return (s) => s.endsWith(text);
      return (s) => s.includes(text);
    }
    case 'and': {
      const parts = q.parts.map(literalCheck).filter((p) => p !== null);
      if (parts.length === 0) return null;
      return (s) => parts.every((p) => p(s));
    }
    case 'or': {
      const parts = q.parts.map(literalCheck);
      if (parts.some((p) => p === null)) return null;
      return (s) => parts.some((p) => p!(s));
    }
  }
}

/** How many string searches literalCheck(q) may make of one text: its literal runs. */
function searchesOf(q: TrigramQuery): number {
  switch (q.kind) {
    case 'all':
      return 0;
    case 'run':
      return 1;
    case 'and':
    case 'or':
      return q.parts.reduce((n, p) => n + searchesOf(p), 0);
  }
}

/** literalCheck(q), counting each search it may make over the text. */
function countedCheck(q: TrigramQuery): ((folded: string, work: Work) => boolean) | null {
  const check = literalCheck(q);
  if (check === null) return null;
  const searches = searchesOf(q);
  return (s, work) => {
    work.add(searches * textCost(s.length));
    return check(s);
  };
}

function hasTrigram(q: TrigramQuery): boolean {
  switch (q.kind) {
    case 'all':
      return false;
    case 'run':
      return q.text.length + (q.atStart ? 1 : 0) + (q.atEnd ? 1 : 0) >= 3;
    case 'and':
      return q.parts.some(hasTrigram);
    case 'or':
      return q.parts.every(hasTrigram);
  }
}

function makeTest(
  column: TextColumn,
  op: TextOp,
  key: string,
  lazyRegex: (() => Regex) | null,
  required: TrigramQuery,
): (v: number, work: Work) => boolean {
  const values = column.values;
  if (lazyRegex !== null) {
    const plain = literalAlternatives(key, op === 'iregex');
    const sequences = plain === null ? literalSequences(key, op === 'iregex') : null;
    if (plain !== null || sequences !== null) {
      const check =
        plain !== null
          ? countedCheck({ kind: 'or', parts: plain.map((p) => ({ kind: 'run', ...p })) })!
          : (s: string, work: Work) => {
              work.add(sequences!.length * textCost(s.length));
              return sequences!.some((seq) => matchesSequence(seq, s));
            };
      if (op === 'regex') return (v, work) => check(values.at(v), work);
      const folded = column.folded;
      if (!/i/i.test(key)) return (v, work) => check(folded.at(v), work);
      return (v, work) => {
        if (!check(folded.at(v), work)) return false;
        const value = values.at(v);
        work.add(textCost(value.length));
        return !DOTTED_OR_DOTLESS_I.test(value) || lazyRegex().test(value, work);
      };
    }
    const regex = lazyRegex();
    // The literals the pattern requires are checked on the folded text first: native substring
    // search is an order of magnitude faster than the regex engine and rejects most candidates
    // (all of them when the index could not narrow the pattern down).
    const literals = countedCheck(required);
    if (literals === null) return (v, work) => regex.test(values.at(v), work);
    const folded = column.folded;
    return (v, work) => literals(folded.at(v), work) && regex.test(values.at(v), work);
  }
  const searches = (s: string) => textCost(s.length + key.length);
  // a substring search steps over the text up to its first match, or the whole text
  const stepped = (s: string, at: number) => textCost(at < 0 ? s.length + key.length : at + key.length);
  // the case-insensitive lookups test the folded text, with the folded key
  const texts = CASE_INSENSITIVE.has(op) ? column.folded : values;
  switch (op) {
    case 'exact':
    case 'iexact':
      return (v, work) => {
        work.add(WORK.text);
        return texts.at(v) === key;
      };
    case 'contains':
    case 'icontains':
      return (v, work) => {
        const value = texts.at(v);
        const at = value.indexOf(key);
        work.add(stepped(value, at));
        return at >= 0;
      };
    case 'startswith':
    case 'istartswith':
      return (v, work) => {
        const value = texts.at(v);
        work.add(searches(value));
        return value.startsWith(key);
      };
    case 'endswith':
    case 'iendswith':
      return (v, work) => {
        const value = texts.at(v);
        work.add(searches(value));
        return value.endsWith(key);
      };
    case 'regex':
    case 'iregex':
      throw new Error('a regex lookup needs its compiled pattern');
  }
}
