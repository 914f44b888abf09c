// minisearch.json written without MiniSearch: the very bytes of JSON.stringify(miniSearch) once
// `miniSearch.addAll(documents)` with miniSearchOptions (the tests hold the two together). MiniSearch
// keeps a Map of documents per term and field in its radix tree: for the directory, millions of
// small Maps that are most of the indexing time and of its garbage. Here each (term, field,
// document) is three integers in typed arrays.
//
// What toJSON() writes, and how it is reproduced:
// - documentIds, fieldLength, storedFields: objects keyed by short ids, the documents' numbers in
//   the order added (JSON lists integer keys ascending, the order they are met here);
// - a field's length is its number of distinct tokens, and averageFieldLength the running mean
//   MiniSearch keeps, computed the same way (the same doubles);
// - the index: [term, {fieldId: {shortId: count}}] in the order of MiniSearch's radix tree, which
//   depends on the order terms first occur in; the tree here is MiniSearch's own SearchableMap,
//   given the same terms in the same order.
import SearchableMap from 'minisearch/SearchableMap';
import { JsonBytes } from './json-bytes.ts';
import { FIELDS, processTerm, STORE_FIELDS, tokenize, type MiniSearchDocument } from './options.ts';
import { grown } from '../../../util/grown.ts';

/** The buffer's first guess, a generous one (pages never written cost no memory): bytes per document, and a base. */
const GUESS_PER_DOCUMENT = 512;
const GUESS_BASE = 1 << 20;
/** The same for the field lengths, and for the (term, field, document) postings. */
const LENGTHS_GUESS_PER_DOCUMENT = 32;
const POSTINGS_GUESS_PER_DOCUMENT = 16;

/**
 * `JSON.stringify` of a MiniSearch (miniSearchOptions) given these documents in this order, as
 * UTF-8. Written in place in one buffer, where the sections of one document's parts are far
 * apart: the documents are made twice (`document`), and only the field lengths are gathered aside.
 */
export function miniSearchJson<T>(items: readonly T[], document: (item: T) => MiniSearchDocument): Buffer {
  const count = items.length;
  const vocabulary = new Vocabulary();
  const postings = new Postings((1 << 12) + count * POSTINGS_GUESS_PER_DOCUMENT);
  const averages: number[] = [];
  // (MiniSearch refuses a document whose id it has)
  const keys = new Set<unknown>();
  const out = new JsonBytes(GUESS_BASE + count * GUESS_PER_DOCUMENT);
  const lengths = new JsonBytes(GUESS_BASE + count * LENGTHS_GUESS_PER_DOCUMENT);
  out.ascii(`{"documentCount":${count},"nextId":${count},"documentIds":{`);
  for (let doc = 0; doc < count; doc++) {
    const d = document(items[doc]);
    if (keys.has(d.key)) throw new Error(`MiniSearch: duplicate ID ${d.key}`);
    keys.add(d.key);
    member(out, doc, JSON.stringify(d.key), doc === 0);
    const fields = indexFields(d, doc, vocabulary, postings, averages);
    if (fields !== null) member(lengths, doc, JSON.stringify(fields), lengths.length === 0);
  }
  keys.clear();
  out.ascii(`},"fieldIds":${JSON.stringify(Object.fromEntries(FIELDS.map((field, id) => [field, id])))},"fieldLength":{`);
  out.append(lengths);
  out.ascii(`},"averageFieldLength":${JSON.stringify(averages)},"storedFields":{`);
  for (let doc = 0; doc < count; doc++) member(out, doc, JSON.stringify(storedFields(document(items[doc]))), doc === 0);
  out.ascii('},"dirtCount":0,"index":[');
  writeIndex(out, vocabulary, postings);
  out.ascii('],"serializationVersion":2}');
  return out.finish();
}

/** `"doc":json` in an object keyed by short ids (a comma before all but the first). */
function member(out: JsonBytes, doc: number, json: string, first: boolean): void {
  out.ascii(first ? '"' : ',"');
  out.int(doc);
  out.ascii('":');
  out.text(json);
}

/** A document's fields into the postings: their lengths by field id (null when it has none), as MiniSearch's add() does. */
function indexFields(document: MiniSearchDocument, doc: number, vocabulary: Vocabulary, postings: Postings, averages: number[]): number[] | null {
  let lengths: number[] | null = null;
  for (let field = 0; field < FIELDS.length; field++) {
    const value = document[FIELDS[field] as keyof MiniSearchDocument];
    if (value == null) continue;
    const mark = doc * FIELDS.length + field + 1;
    let distinct = 0;
    for (const token of tokenize(value.toString())) {
      const word = vocabulary.word(token);
      if (vocabulary.seen(word, mark)) distinct++;
      for (const term of vocabulary.termsOfWord[word]) postings.add(term, field, doc, mark);
    }
    lengths ??= [];
    lengths[field] = distinct;
    averages[field] = ((averages[field] || 0) * doc + distinct) / (doc + 1);
  }
  return lengths;
}

function storedFields(document: MiniSearchDocument): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const field of STORE_FIELDS) {
    const value = document[field as keyof MiniSearchDocument];
    if (value !== undefined) stored[field] = value;
  }
  return stored;
}

/** The distinct tokens met and the terms each gives, the terms numbered in the order they first occur. */
class Vocabulary {
  /** term → its number, in MiniSearch's tree order when iterated */
  readonly tree = new SearchableMap<number>();
  readonly termsOfWord: number[][] = [];
  terms = 0;
  private readonly termIds = new Map<string, number>();
  private readonly wordIds = new Map<string, number>();
  /** per word: the last document field (its mark) it was met in */
  private marks = new Int32Array(1 << 12);

  /** The token's number: processTerm runs once per distinct token. */
  word(token: string): number {
    let id = this.wordIds.get(token);
    if (id === undefined) {
      id = this.termsOfWord.length;
      this.wordIds.set(token, id);
      this.termsOfWord.push(processTerm(token).map((term) => this.term(term)));
    }
    return id;
  }

  /** Whether the word is met for the first time in the document field `mark`. */
  seen(word: number, mark: number): boolean {
    if (word >= this.marks.length) this.marks = grown(this.marks, word);
    if (this.marks[word] === mark) return false;
    this.marks[word] = mark;
    return true;
  }

  private term(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms++;
      this.termIds.set(term, id);
      this.tree.set(term, id);
    }
    return id;
  }
}

/** Each (term, field, document) once, with its count, in the order met: by document. */
class Postings {
  length = 0;
  /** term * FIELDS.length + field */
  slot: Int32Array<ArrayBuffer>;
  doc: Int32Array<ArrayBuffer>;
  count: Int32Array<ArrayBuffer>;
  /** per term: the last document field (its mark) it was met in, and its posting there */
  private marks = new Int32Array(1 << 12);
  private last = new Int32Array(1 << 12);

  /** `guess`: how many there will be, a generous guess (pages never written cost no memory) */
  constructor(guess: number) {
    this.slot = new Int32Array(guess);
    this.doc = new Int32Array(guess);
    this.count = new Int32Array(guess);
  }

  add(term: number, field: number, doc: number, mark: number): void {
    if (term >= this.marks.length) {
      this.marks = grown(this.marks, term);
      this.last = grown(this.last, term);
    }
    if (this.marks[term] === mark) {
      this.count[this.last[term]]++;
      return;
    }
    const at = this.length++;
    if (at === this.slot.length) {
      this.slot = grown(this.slot, at);
      this.doc = grown(this.doc, at);
      this.count = grown(this.count, at);
    }
    this.marks[term] = mark;
    this.last[term] = at;
    this.slot[at] = term * FIELDS.length + field;
    this.doc[at] = doc;
    this.count[at] = 1;
  }
}

/** The members of the index array: the postings by slot (a counting sort keeps each slot's documents ascending), terms in tree order. */
function writeIndex(out: JsonBytes, vocabulary: Vocabulary, postings: Postings): void {
  const slots = vocabulary.terms * FIELDS.length;
  const start = new Int32Array(slots + 1);
  const { slot, doc, count, length } = postings;
  for (let i = 0; i < length; i++) start[slot[i] + 1]++;
  for (let s = 0; s < slots; s++) start[s + 1] += start[s];
  const next = start.slice(0, slots);
  const order = new Int32Array(length);
  for (let i = 0; i < length; i++) order[next[slot[i]]++] = i;
  let firstTerm = true;
  for (const [term, id] of vocabulary.tree) {
    out.ascii(firstTerm ? '[' : ',[');
    firstTerm = false;
    out.text(JSON.stringify(term));
    out.ascii(',{');
    let firstField = true;
    for (let field = 0; field < FIELDS.length; field++) {
      const from = start[id * FIELDS.length + field];
      const to = start[id * FIELDS.length + field + 1];
      if (from === to) continue;
      out.ascii(firstField ? '"' : ',"');
      firstField = false;
      out.int(field);
      out.ascii('":{');
      for (let j = from; j < to; j++) {
        out.ascii(j === from ? '"' : ',"');
        out.int(doc[order[j]]);
        out.ascii('":');
        out.int(count[order[j]]);
      }
      out.char(0x7d);
    }
    out.ascii('}]');
  }
}
