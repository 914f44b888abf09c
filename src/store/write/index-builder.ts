// Directory objects → serialized autocomplete index. Everything that can be decided at build
// time is: listing order, word forms, field classes, sorted term dictionary.
import { DIRECTORY_MODELS, directoryKind, type DirectoryObject } from '../../model/types.ts';
import { fold, rawWords, wordForms } from '../format/words.ts';
import { modelIndex } from '../../model/directory-models.ts';
import { termPostings } from './term-postings.ts';
import {
  INDEX_FORMAT,
  INDEX_VERSION,
  MAX_DOCS,
  NAME_CLASS,
  OTHER_CLASS,
  type SerializedIndex,
} from '../format/autocomplete-index.ts';

/** Listing order: presentation (folded, then raw), then ctype, then id. */
export function listingOrder(objects: readonly DirectoryObject[]): DirectoryObject[] {
  const keyed = objects.map((o) => ({ o, f: fold(o.presentation), c: o.model.toLowerCase() }));
  keyed.sort((a, b) => {
    if (a.f !== b.f) return a.f < b.f ? -1 : 1;
    const pa = a.o.presentation;
    const pb = b.o.presentation;
    if (pa !== pb) return pa < pb ? -1 : 1;
    if (a.c !== b.c) return a.c < b.c ? -1 : 1;
    return a.o.id - b.o.id;
  });
  return keyed.map((k) => k.o);
}

/**
 * The indexed forms of one object with their field class. Searchable words are the
 * presentation's and the keywords'; a word is in the name class when it is also a word of
 * the name field, so an explicit presentation still ranks by the structured name.
 */
export function objectTerms(o: DirectoryObject, forms: (raw: string) => string[] = wordForms): Map<string, number> {
  const nameField = directoryKind(o.model) === 'person' ? o.last_name : o.name;
  const nameForms = new Set<string>();
  for (const w of rawWords(nameField ?? '')) for (const f of forms(w)) nameForms.add(f);
  const out = new Map<string, number>();
  const add = (text: string) => {
    for (const w of rawWords(text)) {
      for (const f of forms(w)) {
        const cls = nameForms.has(f) ? NAME_CLASS : OTHER_CLASS;
        const prev = out.get(f);
        if (prev === undefined || cls < prev) out.set(f, cls);
      }
    }
  };
  add(o.presentation);
  for (const k of o.keywords) add(k);
  return out;
}

/** `docs`: the objects in listing order, when the caller has them already (the sort is a third of the index). */
export function buildIndex(objects: readonly DirectoryObject[], docs: readonly DirectoryObject[] = listingOrder(objects)): SerializedIndex {
  if (objects.length > MAX_DOCS) throw new Error(`autocomplete: at most ${MAX_DOCS} directory objects are supported`);
  const { terms, postings } = termPostings(docs);
  return {
    format: INDEX_FORMAT,
    version: INDEX_VERSION,
    models: [...DIRECTORY_MODELS],
    model: docs.map((o) => modelIndex(o.model)),
    id: docs.map((o) => o.id),
    presentation: docs.map((o) => o.presentation),
    // content-format: "level_id and room_id are the room's values, null for everything else"
    level_id: docs.map((o) => (directoryKind(o.model) === 'room' ? o.level_id : null)),
    room_id: docs.map((o) => (directoryKind(o.model) === 'room' ? o.room_id : null)),
    terms: terms.join('\n'),
    postings,
  };
}

export function buildIndexJson(objects: readonly DirectoryObject[], docs?: readonly DirectoryObject[]): string {
  return JSON.stringify(buildIndex(objects, docs));
}
