// The own index's sorted terms and postings (index-builder.ts), gathered as integers: a Map and a
// Set per object and an array per term are most of the garbage of indexing the directory. What
// is gathered is what objectTerms() gives each object, in listing order.
import { directoryKind, type DirectoryObject } from '../../model/types.ts';
import { rawWords, wordForms } from '../format/words.ts';
import { NAME_CLASS, OTHER_CLASS } from '../format/autocomplete-index.ts';
import { grown } from '../../util/grown.ts';

export interface TermPostings {
  /** sorted by UTF-16 code units, the order the searcher's binary search assumes */
  terms: string[];
  /** per term: (doc - previous doc) * 2 + class for each of its documents, then 0 */
  postings: number[];
}

/** The entries' first guess: a base, and per document. */
const GUESS_BASE = 1 << 12;
const GUESS_PER_DOCUMENT = 12;

/** `docs` in listing order: each term's documents ascending. */
export function termPostings(docs: readonly DirectoryObject[]): TermPostings {
  const vocabulary = new FormTerms();
  const entries = new Entries(GUESS_BASE + docs.length * GUESS_PER_DOCUMENT);
  docs.forEach((o, doc) => {
    const mark = doc + 1;
    const nameField = directoryKind(o.model) === 'person' ? o.last_name : o.name;
    for (const word of rawWords(nameField ?? '')) for (const term of vocabulary.of(word)) entries.name(term, mark);
    const add = (text: string) => {
      for (const word of rawWords(text)) for (const term of vocabulary.of(word)) entries.add(term, doc, mark);
    };
    add(o.presentation);
    for (const k of o.keywords) add(k);
  });
  return entries.sorted(vocabulary.terms);
}

/** Each distinct raw word's forms (wordForms) as term numbers, the terms numbered as first met. */
class FormTerms {
  readonly terms: string[] = [];
  private readonly ofWord = new Map<string, number[]>();
  private readonly ids = new Map<string, number>();

  of(word: string): number[] {
    let terms = this.ofWord.get(word);
    if (terms === undefined) this.ofWord.set(word, (terms = wordForms(word).map((form) => this.id(form))));
    return terms;
  }

  private id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }
}

/** Each (term, document) once, with its class, in the order met. */
class Entries {
  length = 0;
  term: Int32Array<ArrayBuffer>;
  /** doc * 2 + class */
  docClass: Int32Array<ArrayBuffer>;
  /** per term: the document (its mark) whose name it is a form of, and the last it was met in */
  private nameMarks = new Int32Array(1 << 12);
  private marks = new Int32Array(1 << 12);

  /** `guess`: how many there will be, a generous guess (pages never written cost no memory) */
  constructor(guess: number) {
    this.term = new Int32Array(guess);
    this.docClass = new Int32Array(guess);
  }

  name(term: number, mark: number): void {
    this.fit(term);
    this.nameMarks[term] = mark;
  }

  add(term: number, doc: number, mark: number): void {
    this.fit(term);
    if (this.marks[term] === mark) return;
    this.marks[term] = mark;
    if (this.length === this.term.length) {
      this.term = grown(this.term, this.length);
      this.docClass = grown(this.docClass, this.length);
    }
    this.term[this.length] = term;
    this.docClass[this.length++] = doc * 2 + (this.nameMarks[term] === mark ? NAME_CLASS : OTHER_CLASS);
  }

  private fit(term: number): void {
    if (term < this.marks.length) return;
    this.marks = grown(this.marks, term);
    this.nameMarks = grown(this.nameMarks, term);
  }

  /** The terms met in a document (not those only of names), sorted, with their postings. */
  sorted(names: readonly string[]): TermPostings {
    const { term, docClass, length } = this;
    const start = new Int32Array(names.length + 1);
    for (let i = 0; i < length; i++) start[term[i] + 1]++;
    for (let t = 0; t < names.length; t++) start[t + 1] += start[t];
    const next = start.slice(0, names.length);
    const order = new Int32Array(length);
    for (let i = 0; i < length; i++) order[next[term[i]]++] = i;
    const ids = [...names.keys()].filter((t) => start[t + 1] > start[t]);
    // default sort: UTF-16 code units
    ids.sort((a, b) => (names[a] < names[b] ? -1 : 1));
    const postings: number[] = [];
    for (const t of ids) {
      let previous = -1;
      for (let j = start[t]; j < start[t + 1]; j++) {
        const p = docClass[order[j]];
        const doc = p >> 1;
        postings.push((doc - previous) * 2 + (p & 1));
        previous = doc;
      }
      postings.push(0);
    }
    return { terms: ids.map((t) => names[t]), postings };
  }
}
