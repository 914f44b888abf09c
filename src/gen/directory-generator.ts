// directory/**: people, rooms and organizations, by model, in parts of at most 500.
import { Random } from './random.ts';
import { DIRECTORY_MODELS, directoryKind, type DirectoryModel } from '../model/types.ts';
import type { TreeWriter } from './tree-writer.ts';
import { FIRST_NAMES, LAST_NAMES, organizationName, PERSON_TITLES, STUDENT_TITLES, TITLES_AFTER } from './vocabulary.ts';
import { pad2 } from './wall-time.ts';
import { toYaml } from './yaml-writer.ts';

/** Share of each model: ~45% persons/students, ~35% rooms, ~20% organizations. */
const MODEL_SHARES: Record<DirectoryModel, number> = {
  'campus.Person': 0.17,
  'structure.Person': 0.13,
  'campus.Student': 0.15,
  'campus.Room': 0.22,
  'geo.Room': 0.13,
  'structure.Organization': 0.2,
};

/** Splits `total` by MODEL_SHARES (largest remainder), every model at least once if possible. */
export function directoryCounts(total: number): Record<DirectoryModel, number> {
  const counts = {} as Record<DirectoryModel, number>;
  const remainders = DIRECTORY_MODELS.map((model) => {
    const exact = total * MODEL_SHARES[model];
    counts[model] = Math.floor(exact);
    return { model, remainder: exact - counts[model] };
  });
  let missing = total - DIRECTORY_MODELS.reduce((sum, model) => sum + counts[model], 0);
  // Stable sort: ties keep DIRECTORY_MODELS order.
  for (const { model } of remainders.sort((a, b) => b.remainder - a.remainder)) {
    if (missing-- <= 0) break;
    counts[model]++;
  }
  for (const model of DIRECTORY_MODELS) {
    if (counts[model] > 0 || total < DIRECTORY_MODELS.length) continue;
    const largest = DIRECTORY_MODELS.reduce((a, b) => (counts[b] > counts[a] ? b : a));
    counts[largest]--;
    counts[model]++;
  }
  return counts;
}

export function writeDirectory(out: TreeWriter, rng: Random, total: number): void {
  const counts = directoryCounts(total);
  for (const model of DIRECTORY_MODELS) {
    // Separate stream per model: a model's objects do not depend on the others' counts.
    writeModel(out, Random.derive(rng.nextUint32(), model), model, counts[model]);
  }
}

function writeModel(out: TreeWriter, rng: Random, model: DirectoryModel, count: number): void {
  // Several parts per model even for small sets (nested folders, many files); at most 500.
  const partSize = Math.min(500, Math.max(1, Math.ceil(count / 4)));
  const folder = `directory/${model.toLowerCase().replace('.', '-')}`;
  let id = rng.int(1, 50);
  let roomId = 10_000 + rng.int(0, 999);
  let part: Record<string, unknown>[] = [];
  let parts = 0;

  for (let i = 0; i < count; i++) {
    const object = directoryObject(rng, model, id, roomId);
    id += rng.chance(0.15) ? rng.int(2, 20) : 1;
    roomId += rng.int(1, 7);
    part.push(object);
    if (part.length >= partSize || i === count - 1) {
      out.write(`${folder}/part-${++parts}.yaml`, toYaml(part));
      part = [];
    }
  }
}

function directoryObject(rng: Random, model: DirectoryModel, id: number, roomId: number): Record<string, unknown> {
  const object: Record<string, unknown> = { model, id };
  const kind = directoryKind(model);
  if (kind === 'person') Object.assign(object, personFields(rng, model === 'campus.Student'));
  else if (kind === 'room') Object.assign(object, roomFields(rng, model, roomId));
  else object.name = organizationName(rng);

  if (rng.chance(0.1)) object.keywords = rng.sample(KEYWORDS[kind], rng.int(1, 3));
  if (rng.chance(0.005)) object.presentation = explicitPresentation(rng, object, kind);
  if (rng.chance(0.005)) object.extra = { source: 'campus-export', synced: '2025-01-15T08:00:00+01:00', flags: ['import'] };
  return object;
}

function personFields(rng: Random, student: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (rng.chance(student ? 0.08 : 0.65)) fields.title = rng.pick(student ? STUDENT_TITLES : PERSON_TITLES);
  if (rng.chance(0.93)) fields.first_name = rng.chance(0.05) ? rng.sample(FIRST_NAMES, 2).join(' ') : rng.pick(FIRST_NAMES);
  fields.last_name = rng.chance(0.03) ? `${rng.pick(LAST_NAMES)}-${rng.pick(LAST_NAMES)}` : rng.pick(LAST_NAMES);
  if (rng.chance(student ? 0.12 : 0.25)) fields.title_after = rng.pick(student ? ['BSc', 'MSc', 'BA'] : TITLES_AFTER);
  return fields;
}

const ROOM_BUILDINGS = ['BT25', 'BT86', 'SP23', 'LZ14', 'KS15', 'AKH'];
const BUILDING_ADDRESSES = ['Spitalgasse 23', 'Währinger Gürtel 18–20', 'Lazarettgasse 14', 'Kinderspitalgasse 15', 'Schwarzspanierstraße 17'];

function roomFields(rng: Random, model: DirectoryModel, roomId: number): Record<string, unknown> {
  const floor = rng.int(0, 9);
  const number = `${pad2(floor)}.${String(rng.int(1, 250)).padStart(3, '0')}`;
  const name = rng.weighted<() => string>([
    [() => `Hörsaal ${rng.int(1, 12)}`, 2],
    [() => `Seminarraum ${number}`, 5],
    [() => `Labor ${floor}.${pad2(rng.int(1, 40))}`, 4],
    [() => `Büro ${number}`, 5],
    [() => `Besprechungsraum ${number}`, 2],
    [() => rng.pick(['Bibliothek', 'Lesesaal', 'Lernzentrum', 'Großer Hörsaal', 'Kleiner Hörsaal', 'Sozialraum', 'Skills Lab']), 1],
    [() => `Übungsraum ${rng.int(1, 20)}`, 1],
  ])();
  const fields: Record<string, unknown> = { name };
  if (rng.chance(0.6)) fields.code = model === 'geo.Room' ? `${rng.pick(ROOM_BUILDINGS)}/${number}` : `${rng.pick(ROOM_BUILDINGS)}-${number}`;
  if (rng.chance(0.97)) {
    fields.level_id = rng.int(1, 60) * 10 + floor;
    fields.room_id = roomId;
  }
  return fields;
}

const KEYWORDS: Record<'person' | 'room' | 'organization', string[]> = {
  person: ['Sekretariat', 'Studienservice', 'Erasmus', 'Ansprechperson', 'Vorstand', 'Lehrbeauftragte', 'Betriebsrat'],
  room: ['barrierefrei', 'Hörsaalzentrum', 'Beamer', 'Videokonferenz', 'Ebene 7', 'Altbau'],
  organization: ['Ambulanz', 'Klinik', 'Sekretariat', 'Forschung', 'Lehre', 'Notfall', 'Tagesklinik'],
};

function explicitPresentation(rng: Random, object: Record<string, unknown>, kind: 'person' | 'room' | 'organization'): string {
  if (kind === 'person') {
    const name = [object.title, object.first_name, object.last_name].filter(Boolean).join(' ');
    return `${name} (${rng.pick(['Vorständin', 'Vorstand', 'Studienprogrammleitung', 'Sekretariat'])})`;
  }
  if (kind === 'room') return `${String(object.name)} – ${rng.pick(BUILDING_ADDRESSES)}`;
  return `${String(object.name)} (${rng.pick(['Ambulanz', 'Sekretariat', 'Leitung'])})`;
}
