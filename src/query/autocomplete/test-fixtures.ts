// Directory objects for the autocomplete tests (not a test file itself).
import { noKindFields, type DirectoryModel, type DirectoryObject } from '../../model/types.ts';
import { mulberry32 } from '../../util/mulberry32.ts';

const EMPTY = { keywords: [] as string[], ...noKindFields() };

/** Optimal string alignment distance, the textbook full-matrix way. */
export function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}


type PersonModel = 'campus.Person' | 'campus.Student' | 'structure.Person';

export function person(
  id: number,
  first: string | null,
  last: string,
  opts: { model?: PersonModel; title?: string; after?: string; keywords?: string[]; presentation?: string } = {},
): DirectoryObject {
  const computed = [opts.title, first, last].filter(Boolean).join(' ') + (opts.after ? `, ${opts.after}` : '');
  return {
    ...EMPTY,
    model: opts.model ?? 'campus.Person',
    id,
    presentation: opts.presentation ?? computed,
    keywords: opts.keywords ?? [],
    title: opts.title ?? null,
    first_name: first,
    last_name: last,
    title_after: opts.after ?? null,
  };
}

export function room(
  id: number,
  name: string,
  code: string | null,
  opts: { model?: 'campus.Room' | 'geo.Room'; level?: number; room?: number; keywords?: string[] } = {},
): DirectoryObject {
  return {
    ...EMPTY,
    model: opts.model ?? 'campus.Room',
    id,
    presentation: code ? `${name} (${code})` : name,
    keywords: opts.keywords ?? [],
    name,
    code,
    level_id: opts.level ?? null,
    room_id: opts.room ?? null,
  };
}

export function org(id: number, name: string, keywords: string[] = []): DirectoryObject {
  return { ...EMPTY, model: 'structure.Organization', id, presentation: name, keywords, name };
}

// Some words are first names, last names and keywords alike, so that the field class matters.
export const FIRST_NAMES = ['Anna', 'Hans', 'Jörg', 'Jürgen', 'Zoë', 'Maria', 'Peter', 'Ayşe', 'Łukasz', 'Sören', 'Käthe', 'Hans-Georg', 'Ole', 'Ida', 'Mai', 'Weber'];
export const LAST_NAMES = [
  'Müller', 'Mueller', 'Muller', 'Schmidt', 'Schmitt', 'Weiß', 'Weiss', 'Öztürk', 'Weber', 'Wever', 'Becker', 'Bäcker',
  'Hoffmann', 'Hofmann', 'Krüger', 'Kruger', "O'Brien", 'Müller-Lüdenscheidt', 'Groß', 'Gross', 'Yılmaz', 'Dvořák', 'Zimmermann', 'Mai',
  'Hans', 'Peter', 'Annabell',
];
const TITLES = ['', '', 'Dr.', 'Prof. Dr.', 'Univ.-Prof. Dr.', 'Dipl.-Ing.'];
const AFTER = ['', '', '', 'PhD', 'M.A.'];
const ROOM_NAMES = ['Hörsaal', 'Seminarraum', 'Labor', 'Büro', 'Übungsraum', 'Großer Saal'];
const ORG_WORDS = ['Institut für Informatik', 'Lehrstuhl für Mathematik', 'Fakultät für Physik', 'Zentrum für Ökologie', 'Dekanat'];
const PERSON_MODELS: PersonModel[] = ['campus.Person', 'campus.Student', 'structure.Person'];

/** A mixed directory with many shared words, duplicates of presentations and every model. */
export function syntheticDirectory(n: number, seed: number): DirectoryObject[] {
  const r = mulberry32(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)];
  const nextId = new Map<DirectoryModel, number>();
  const id = (m: DirectoryModel) => {
    const v = (nextId.get(m) ?? 0) + 1 + Math.floor(r() * 3);
    nextId.set(m, v);
    return v;
  };
  const out: DirectoryObject[] = [];
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.6) {
      const model = pick(PERSON_MODELS);
      out.push(
        person(id(model), r() < 0.9 ? pick(FIRST_NAMES) : null, pick(LAST_NAMES), {
          model,
          title: pick(TITLES) || undefined,
          after: pick(AFTER) || undefined,
          keywords: r() < 0.15 ? [pick(['Dekan', 'Sprechstunde', 'Studienberatung', 'Prüfungsamt', 'Müller', 'Hans'])] : [],
        }),
      );
    } else if (x < 0.85) {
      const model = r() < 0.5 ? 'campus.Room' : 'geo.Room';
      const code = r() < 0.8 ? `${String(Math.floor(r() * 6)).padStart(2, '0')}.${String(Math.floor(r() * 40)).padStart(3, '0')}` : null;
      out.push(
        room(id(model), pick(ROOM_NAMES) + (r() < 0.5 ? ` ${1 + Math.floor(r() * 5)}` : ''), code, {
          model,
          level: Math.floor(r() * 5),
          room: Math.floor(r() * 1000),
        }),
      );
    } else {
      out.push(org(id('structure.Organization'), pick(ORG_WORDS), r() < 0.3 ? ['Verwaltung'] : []));
    }
  }
  return out;
}
