// directory/**: people, rooms and organizations for the autocomplete.
import { DIRECTORY_MODELS, directoryKind, noKindFields, type DirectoryKind, type DirectoryModel, type DirectoryObject } from '../model/types.ts';
import type { Fields } from './fields.ts';
import { idOrNaN, indexById } from './ids.ts';
import { describeValue, type FileIssue } from './problems.ts';
import { parseFile, type Parsed, type Sourced } from './records.ts';
import { collapseWhitespace } from './whitespace.ts';

export function parseDirectoryFile(file: string, text: string): Parsed<DirectoryObject> {
  return parseFile(file, text, readDirectoryObject);
}

const MODELS: ReadonlySet<string> = new Set(DIRECTORY_MODELS);

export function readDirectoryObject(f: Fields): DirectoryObject {
  const model = f.string('model');
  const known = model !== undefined && MODELS.has(model);
  if (model !== undefined && !known) {
    f.problem('model', `expected one of ${DIRECTORY_MODELS.join(', ')}, got ${describeValue(model)}`);
  }
  const obj: DirectoryObject = {
    model: (model ?? '') as DirectoryModel,
    id: idOrNaN(f.int('id')),
    presentation: '',
    keywords: f.stringList('keywords'),
    ...noKindFields(),
  };
  const explicit = f.stringOrNull('presentation');
  // Without a valid model the kind's keys are unknown, so they are neither read nor refused.
  if (!known) return obj;
  const kind = directoryKind(model as DirectoryModel);
  if (kind === 'person') {
    obj.title = f.stringOrNull('title');
    obj.first_name = f.stringOrNull('first_name');
    obj.last_name = f.string('last_name') ?? '';
    obj.title_after = f.stringOrNull('title_after');
  } else {
    obj.name = f.string('name') ?? '';
    if (kind === 'room') {
      obj.code = f.stringOrNull('code');
      obj.level_id = f.intOrNull('level_id');
      obj.room_id = f.intOrNull('room_id');
    }
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

/** Ids are unique per model. */
export function checkDirectory(records: readonly Sourced<DirectoryObject>[], out: FileIssue[]): void {
  const byModel = new Map<string, Sourced<DirectoryObject>[]>();
  for (const r of records) {
    if (!MODELS.has(r.value.model)) continue;
    let list = byModel.get(r.value.model);
    if (!list) byModel.set(r.value.model, (list = []));
    list.push(r);
  }
  for (const [model, list] of byModel) indexById(list, (o) => o.id, `${model} id`, 'id', out);
}
