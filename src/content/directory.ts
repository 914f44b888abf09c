// directory/**: people, rooms and organizations for the autocomplete.
import { DIRECTORY_MODELS, directoryKind, noKindFields, type DirectoryKind, type DirectoryModel, type DirectoryObject } from '../model/types.ts';
import type { Fields } from './fields.ts';
import { idOrNaN, indexById } from './ids.ts';
import type { FileIssue, Problem } from './problems.ts';
import { parseFile, type Parsed, type Sourced } from './records.ts';
import { DIRECTORY_OBJECT, ORGANIZATION, PERSON, ROOM } from './shapes.ts';
import { collapseWhitespace } from './whitespace.ts';

const D = DIRECTORY_OBJECT.fields;

export function parseDirectoryFile(file: string, text: string): Parsed<DirectoryObject> {
  return parseFile(file, text, readDirectoryObject);
}

const MODELS: ReadonlySet<string> = new Set(DIRECTORY_MODELS);

export function readDirectoryObject(f: Fields): DirectoryObject {
  // An unknown model is reported by its rule and reads as undefined.
  const model = f.read(D.model) as DirectoryModel | undefined;
  const known = model !== undefined;
  const obj: DirectoryObject = {
    model: (model ?? '') as DirectoryModel,
    id: idOrNaN(f.read(D.id)),
    presentation: '',
    keywords: f.read(D.keywords),
    ...noKindFields(),
  };
  const explicit = f.read(D.presentation);
  // Without a valid model the kind's keys are unknown, so they are neither read nor refused.
  if (!known) return obj;
  const kind = directoryKind(model);
  if (kind === 'person') {
    const P = PERSON.fields;
    obj.title = f.read(P.title);
    obj.first_name = f.read(P.first_name);
    obj.last_name = f.read(P.last_name) ?? '';
    obj.title_after = f.read(P.title_after);
  } else if (kind === 'room') {
    const R = ROOM.fields;
    obj.name = f.read(R.name) ?? '';
    obj.code = f.read(R.code);
    obj.level_id = f.read(R.level_id);
    obj.room_id = f.read(R.room_id);
  } else {
    obj.name = f.read(ORGANIZATION.fields.name) ?? '';
  }
  // The API appends the line feed, so one written at the end is not kept twice.
  obj.presentation = explicit === null ? presentationOf(kind, obj) : explicit.replace(/\n+$/, '');
  f.rejectUnknown(`a ${model}`);
  return obj;
}

/** `title first_name last_name, title_after` for people, `name (code)` for rooms, `name` else. */
function presentationOf(kind: DirectoryKind, o: DirectoryObject): string {
  const text =
    kind === 'person'
      ? [o.title, o.first_name, o.last_name].filter(Boolean).join(' ') + (o.title_after ? `, ${o.title_after}` : '')
      : o.name + (o.code ? ` (${o.code})` : '');
  return collapseWhitespace(text);
}

/** What the directory's checks read of a record. */
export type DirectoryKey = Pick<DirectoryObject, 'model' | 'id'>;

/** Ids are unique per model. */
export function checkDirectory(records: readonly Sourced<DirectoryKey>[], out: FileIssue[]): void {
  const byModel = new Map<string, Sourced<DirectoryKey>[]>();
  for (const r of records) {
    if (!MODELS.has(r.value.model)) continue;
    let list = byModel.get(r.value.model);
    if (!list) byModel.set(r.value.model, (list = []));
    list.push(r);
  }
  for (const [model, list] of byModel) indexById(list, (o) => o.id, `${model} id`, 'id', out);
}

/**
 * The directory's records as their checks read them, packed, one entry per record in order: its
 * model's index in DIRECTORY_MODELS (-1: none of them), its id, its file (an index into a list of
 * names) and its item (-1: none). A parse thread sends these beside the records it hands on
 * unread (pipeline/load/parse-batch.ts), so that the build checks the directory without a
 * record's object.
 */
export interface DirectoryKeys {
  model: Int8Array;
  id: Float64Array;
  file: Uint32Array;
  item: Int32Array;
}

/** The keys of `records`, each of file `file` (DirectoryKeys). */
export function directoryKeys(records: readonly { value: DirectoryKey; item: number | null }[], file: number): DirectoryKeys {
  const n = records.length;
  const keys: DirectoryKeys = { model: new Int8Array(n), id: new Float64Array(n), file: new Uint32Array(n).fill(file), item: new Int32Array(n) };
  records.forEach(({ value, item }, i) => {
    keys.model[i] = MODEL_INDEX.get(value.model) ?? -1;
    keys.id[i] = value.id;
    keys.item[i] = item ?? -1;
  });
  return keys;
}

const MODEL_INDEX = new Map<string, number>(DIRECTORY_MODELS.map((m, i) => [m, i]));

/**
 * checkDirectory over packed keys (DirectoryKeys; `files`: the names their file indexes are of).
 * Each model's ids are sorted as numbers to find a repeat; only where there is one are records
 * made, for checkDirectory to tell it as it does.
 */
export function checkDirectoryKeys(keys: DirectoryKeys, files: readonly string[], out: FileIssue[]): void {
  const counts = new Uint32Array(DIRECTORY_MODELS.length);
  for (const m of keys.model) if (m >= 0) counts[m]++;
  const ids = Array.from(counts, (n) => new Float64Array(n));
  counts.fill(0);
  keys.model.forEach((m, i) => m >= 0 && (ids[m][counts[m]++] = keys.id[i]));
  // (NaN, a missing id, sorts last and repeats nothing)
  const repeats = ids.some((list) => list.sort().some((id, i) => i > 0 && id === list[i - 1]));
  if (!repeats) return;
  const records = Array.from(keys.model, (m, i) => ({ value: { model: (DIRECTORY_MODELS[m] ?? '') as DirectoryModel, id: keys.id[i] }, file: files[keys.file[i]], item: keys.item[i] < 0 ? null : keys.item[i] }));
  checkDirectory(records, out);
}

/** Packed keys end to end, in order, each part's file indexes moved on by its `from` (DirectoryKeys). */
export function joinedKeys(parts: readonly { keys: DirectoryKeys; from: number }[]): DirectoryKeys {
  const n = parts.reduce((sum, { keys }) => sum + keys.id.length, 0);
  const all: DirectoryKeys = { model: new Int8Array(n), id: new Float64Array(n), file: new Uint32Array(n), item: new Int32Array(n) };
  let at = 0;
  for (const { keys, from } of parts) {
    all.model.set(keys.model, at);
    all.id.set(keys.id, at);
    all.file.set(keys.file.map((f) => f + from), at);
    all.item.set(keys.item, at);
    at += keys.id.length;
  }
  return all;
}

/**
 * The directory's files parsed and handed on unread (pipeline/load/parse-pool.ts handOn): the
 * parse streams (parse-stream.ts; each of `count` files' parses), the records' keys (their file
 * indexes into `files`), and the files' problems in order.
 */
export interface DirectoryParse {
  parses: { bytes: Uint8Array; count: number }[];
  keys: DirectoryKeys;
  files: readonly string[];
  problems: Problem[];
}

/** A batch of a DirectoryParse as a parse thread answers it: each file's problem (unread) or problems, its parses' stream and its records' keys; `from`: its first file's index. */
export type DirectoryBatch = { from: number; files: readonly ({ problem: Problem } | { problems?: Problem[] })[]; bytes: Uint8Array; keys?: DirectoryKeys };

/** The batches of `files`, in any order, as one DirectoryParse. */
export function directoryParse(files: readonly string[], batches: DirectoryBatch[]): DirectoryParse {
  batches.sort((a, b) => a.from - b.from);
  const problems = batches.flatMap((b) => b.files.flatMap((f) => ('problem' in f ? [f.problem] : (f.problems ?? []))));
  const parses = batches.map(({ bytes, files }) => ({ bytes, count: files.filter((f) => !('problem' in f)).length }));
  return { parses, keys: joinedKeys(batches.map(({ keys, from }) => ({ keys: keys!, from }))), files, problems };
}
