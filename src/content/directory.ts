// directory/**: people, rooms and organizations for the autocomplete.
import { DIRECTORY_MODELS, directoryKind, noKindFields, type DirectoryKind, type DirectoryModel, type DirectoryObject } from '../model/types.ts';
import type { Fields } from './fields.ts';
import { idOrNaN, indexById } from './ids.ts';
import type { FileIssue } from './problems.ts';
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
