import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DirectoryModel, DirectoryObject } from '../../model/types.ts';
import { buildIndexJson, listingOrder, objectTerms } from '../../store/write/index-builder.ts';
import { autocompleteOf, createAutocomplete, type Autocomplete } from './searcher.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { readAutocompleteFile } from '../../store/read/autocomplete-file.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { prefixCodes } from './prefix-codes.ts';
import { prefixTops } from './prefix-tops.ts';
import { queryWords } from './query-words.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { org, osa, person, room, syntheticDirectory } from './test-fixtures.ts';

const load = (objects: DirectoryObject[]): Autocomplete => createAutocomplete(buildIndexJson(objects));
type Row = { id: number; ctype: string; presentation: string; level_id: number | null; room_id: number | null };
const rows = (ac: Autocomplete, q: string | undefined, models: DirectoryModel[] | null = null, offset = 0, limit = 1000): Row[] =>
  ac.search(q, models).page(offset, limit).map((s) => JSON.parse(s) as Row);
/** presentations of all matches, in order */
const found = (ac: Autocomplete, q: string | undefined, models: DirectoryModel[] | null = null): string[] =>
  rows(ac, q, models).map((r) => r.presentation.slice(0, -1));

describe('matching', () => {
  const ac = load([
    person(1, 'Anna', 'Müller', { title: 'Dr.' }),
    person(2, 'Hans', 'Weiß'),
    person(3, 'Ayşe', 'Öztürk', { title: 'Univ.-Prof. Dr.', after: 'PhD', model: 'structure.Person' }),
    room(4, 'Hörsaal 1', '05.012', { level: 5, room: 12 }),
    person(5, 'Peter', 'Mueller'),
    person(6, 'Hans', 'Schmidt', { keywords: ['Dekan'] }),
    org(7, 'Institut für Informatik'),
    person(8, 'Anna', 'Schmidt'),
  ]);

  it('finds Müller by mül, mul, muel and MUELLER', () => {
    for (const q of ['mül', 'mul', 'muel', 'MUELLER', 'Müller', 'MÜL']) expect(found(ac, q)).toContain('Dr. Anna Müller');
    expect(found(ac, 'mul')).toEqual(['Dr. Anna Müller']); // "Mueller" is not a "mul…" word
  });

  it('finds a name spelt with ue from an umlaut query', () => {
    expect(found(ac, 'mül')).toEqual(['Dr. Anna Müller', 'Peter Mueller']);
  });

  it('finds Weiß by weiss and Öztürk by oz / oeztuerk', () => {
    expect(found(ac, 'weiss')).toEqual(['Hans Weiß']);
    expect(found(ac, 'weiß')).toEqual(['Hans Weiß']);
    expect(found(ac, 'oz')).toEqual(['Univ.-Prof. Dr. Ayşe Öztürk, PhD']);
    expect(found(ac, 'oeztuerk')).toEqual(['Univ.-Prof. Dr. Ayşe Öztürk, PhD']);
  });

  it('splits query words at punctuation like object words', () => {
    expect(found(ac, '05.012')).toEqual(['Hörsaal 1 (05.012)']);
    expect(found(ac, '05.01')).toEqual(['Hörsaal 1 (05.012)']);
    expect(found(ac, '05.013')).toEqual([]);
    expect(found(ac, 'Univ.-Prof.')).toEqual(['Univ.-Prof. Dr. Ayşe Öztürk, PhD']);
    expect(found(ac, 'prof ayse')).toEqual(['Univ.-Prof. Dr. Ayşe Öztürk, PhD']);
  });

  it('matches keywords without showing them', () => {
    const r = rows(ac, 'dekan');
    expect(r.map((x) => x.presentation)).toEqual(['Hans Schmidt\n']);
    expect(JSON.stringify(r)).not.toContain('Dekan');
  });

  it('requires every query word to match (AND), in any order', () => {
    expect(found(ac, 'hans')).toEqual(['Hans Schmidt', 'Hans Weiß']);
    expect(found(ac, 'hans schmidt')).toEqual(['Hans Schmidt']);
    expect(found(ac, 'schmidt hans')).toEqual(['Hans Schmidt']);
    expect(found(ac, 'anna sch')).toEqual(['Anna Schmidt']);
    expect(found(ac, 'anna weiss')).toEqual([]);
  });

  it('matches organizations by name words, including short function words', () => {
    expect(found(ac, 'inst inf')).toEqual(['Institut für Informatik']);
    expect(found(ac, 'fur')).toEqual(['Institut für Informatik']);
  });

  it('renders the suggestion of a room with its ids', () => {
    expect(rows(ac, 'hörsaal')).toEqual([{ id: 4, ctype: 'campus.room', presentation: 'Hörsaal 1 (05.012)\n', level_id: 5, room_id: 12 }]);
    expect(ac.search('hörsaal', null).page(0, 1)).toEqual([
      '{"id":4,"ctype":"campus.room","presentation":"Hörsaal 1 (05.012)\\n","level_id":5,"room_id":12}',
    ]);
  });

  it('restricts to the given models', () => {
    expect(found(ac, 'dr', ['structure.Person'])).toEqual(['Univ.-Prof. Dr. Ayşe Öztürk, PhD']);
    expect(found(ac, 'dr', ['campus.Person', 'structure.Person'])).toEqual(['Dr. Anna Müller', 'Univ.-Prof. Dr. Ayşe Öztürk, PhD']);
    expect(found(ac, 'dr', ['geo.Room'])).toEqual([]);
    expect(found(ac, 'dr', [])).toEqual(found(ac, 'dr', null));
  });
});

describe('typo tolerance', () => {
  const ac = load([
    person(1, null, 'Weber'),
    person(2, null, 'Zimmermann'),
    person(3, null, 'Hartmann'),
    person(4, null, 'Bauhaus'),
    person(5, null, 'Abel'),
  ]);

  it('gives 3-character words no typo tolerance', () => {
    expect(found(ac, 'abl')).toEqual([]);
    expect(found(ac, 'abe')).toEqual(['Abel']);
  });

  it('allows one edit for 4 to 7 characters, not two', () => {
    expect(found(ac, 'abxl')).toEqual(['Abel']);
    expect(found(ac, 'wexer')).toEqual(['Weber']);
    expect(found(ac, 'webre')).toEqual(['Weber']); // adjacent swap = one edit
    expect(found(ac, 'wexxr')).toEqual([]);
    expect(found(ac, 'baohaus')).toEqual(['Bauhaus']);
    expect(found(ac, 'baohaos')).toEqual([]);
  });

  it('allows two edits from 8 characters, not three', () => {
    expect(found(ac, 'hartnamn')).toEqual(['Hartmann']);
    expect(found(ac, 'zinmerman')).toEqual(['Zimmermann']);
    expect(found(ac, 'zinnerman')).toEqual([]);
  });

  it('matches exact words and prefixes only when asked without typos', () => {
    const exactOnly = (q: string) => ac.search(q, null, { typos: false }).page(0, 10).map((s) => (JSON.parse(s) as Row).presentation.slice(0, -1));
    expect(exactOnly('wexer')).toEqual([]);
    expect(exactOnly('hartnamn')).toEqual([]);
    expect(exactOnly('webe')).toEqual(['Weber']);
    expect(ac.search('wexer', null, { typos: false }).count).toBe(0);
    expect(ac.search('wexer', null, { typos: true }).count).toBe(1);
    // the word's plan is kept between searches: with and without typos in turn, each as asked
    expect(ac.search('wexer', null, { typos: false }).count).toBe(0);
    expect(ac.search('hartnamn', null).count).toBeGreaterThan(0);
    expect(exactOnly('hartnamn')).toEqual([]);
    expect(ac.search('hartnamn', null).count).toBeGreaterThan(0);
  });

  it('counts length on the folded query word (ß is two characters)', () => {
    const ac2 = load([person(1, null, 'Weiss')]);
    expect(found(ac2, 'weiß')).toEqual(['Weiss']);
    expect(found(ac2, 'veiß')).toEqual(['Weiss']); // "veiss" has 5 characters: one edit allowed
  });
});

describe('ranking', () => {
  it('puts exact before prefix before fuzzy matches, whatever the presentation order', () => {
    const ac = load([person(1, 'Anna', 'Mill'), person(2, 'Yann', 'Müller'), person(3, 'Zora', 'Müll')]);
    expect(found(ac, 'müll')).toEqual(['Zora Müll', 'Yann Müller', 'Anna Mill']);
  });

  it('puts one-edit before two-edit matches', () => {
    const ac = load([person(1, 'Anna', 'Zinmerman'), person(2, 'Bert', 'Zimmerman')]);
    expect(found(ac, 'zimmermann')).toEqual(['Bert Zimmerman', 'Anna Zinmerman']);
  });

  it('puts last-name matches before first-name, title and keyword matches of the same tier', () => {
    const ac = load([
      person(1, 'Müller', 'Anders'),
      person(2, 'Carl', 'Berg', { keywords: ['Müller'] }),
      person(3, 'Zora', 'Müller'),
      person(4, 'Dora', 'Xaver', { title: 'Müller' }),
    ]);
    expect(found(ac, 'müller')).toEqual(['Zora Müller', 'Carl Berg', 'Müller Anders', 'Müller Dora Xaver']);
  });

  it('ranks room and organization names before codes and keywords', () => {
    const ac = load([room(1, 'Aula', '12.001'), room(2, 'Zwölf', 'A1'), org(3, 'Abteilung Zwölf', ['12'])]);
    expect(found(ac, 'zwölf')).toEqual(['Abteilung Zwölf', 'Zwölf (A1)']); // both names: presentation order
    expect(found(ac, '12')).toEqual(['Abteilung Zwölf', 'Aula (12.001)']); // keyword vs code: both "other"
    const ac2 = load([room(1, 'Aula', 'B2'), room(2, 'B2 Labor', null)]);
    expect(found(ac2, 'b2')).toEqual(['B2 Labor', 'Aula (B2)']);
  });

  it('ranks the match tier above the field class', () => {
    // exact on a first name beats prefix on a last name
    const ac = load([person(1, 'Anna', 'Müllers'), person(2, 'Müller', 'Zett')]);
    expect(found(ac, 'müller')).toEqual(['Müller Zett', 'Anna Müllers']);
  });

  it('sums over query words: fewer edits, then fewer prefix-only words, then fewer non-name words', () => {
    const ac = load([
      person(1, 'Hansi', 'Maier'), // hans: prefix/other, maier: exact/name
      person(2, 'Hans', 'Maierhofer'), // hans: exact/other, maier: prefix/name
      person(3, 'Hans', 'Maier'), // both exact
      person(4, 'Hans', 'Meier'), // maier: one edit
      person(5, 'Maier', 'Hans'), // both exact, but hans is the last name and maier the first
    ]);
    expect(found(ac, 'hans maier')).toEqual(['Hans Maier', 'Maier Hans', 'Hans Maierhofer', 'Hansi Maier', 'Hans Meier']);
  });

  it('breaks ties by presentation, then ctype, then id', () => {
    const ac = load([
      person(9, 'Anna', 'Weber', { model: 'structure.Person' }),
      person(5, 'Anna', 'Weber'),
      person(2, 'Anna', 'Weber'),
      person(1, 'Bernd', 'Weber'),
      person(3, 'Änne', 'Weber'),
    ]);
    expect(rows(ac, 'weber').map((r) => `${r.presentation.trim()}/${r.ctype}/${r.id}`)).toEqual([
      'Anna Weber/campus.person/2',
      'Anna Weber/campus.person/5',
      'Anna Weber/structure.person/9',
      'Änne Weber/campus.person/3',
      'Bernd Weber/campus.person/1',
    ]);
  });

  it('is deterministic regardless of input order', () => {
    const objects = syntheticDirectory(300, 5);
    const a = load(objects);
    const b = load([...objects].reverse());
    for (const q of ['m', 'mül', 'hans', 'dr', '05', 'weber', 'hörsaal 2']) {
      expect(b.search(q, null).page(0, 300)).toEqual(a.search(q, null).page(0, 300));
    }
  });
});

describe('listing without q', () => {
  const objects = [
    person(1, 'Zora', 'Ziegler'),
    room(1, 'Aula', null, { model: 'geo.Room' }),
    person(2, 'Änne', 'Bauer', { model: 'campus.Student' }),
    org(1, 'Bibliothek'),
    person(3, 'Anna', 'Ziegler', { model: 'structure.Person' }),
  ];
  const ac = load(objects);
  // folded: "anna ziegler" < "anne bauer" < "aula"; code-unit order would put Änne after Zora
  const all = ['Anna Ziegler', 'Änne Bauer', 'Aula', 'Bibliothek', 'Zora Ziegler'];

  it('lists every object ordered by presentation (diacritics folded) for missing, blank or word-less q', () => {
    for (const q of [undefined, '', '   ', ' ., - ']) {
      expect(found(ac, q)).toEqual(all);
      expect(ac.search(q, null).count).toBe(5);
    }
  });

  it('lists only the chosen models, in the same order', () => {
    expect(found(ac, undefined, ['structure.Person', 'campus.Person'])).toEqual(['Anna Ziegler', 'Zora Ziegler']);
    expect(found(ac, '', ['geo.Room', 'structure.Organization', 'campus.Student'])).toEqual(['Änne Bauer', 'Aula', 'Bibliothek']);
    expect(ac.search('', ['campus.Room']).count).toBe(0);
  });

  it('pages a model subset from any offset', () => {
    const big = syntheticDirectory(400, 11);
    const acBig = load(big);
    const models: DirectoryModel[] = ['campus.Student', 'geo.Room', 'structure.Organization'];
    const expected = listingOrder(big.filter((o) => models.includes(o.model))).map((o) => `${o.model.toLowerCase()}/${o.id}`);
    const r = acBig.search(undefined, models);
    expect(r.count).toBe(expected.length);
    for (const [offset, limit] of [[0, 20], [37, 5], [expected.length - 3, 20], [expected.length, 5]]) {
      expect(r.page(offset, limit).map((s) => JSON.parse(s) as Row).map((x) => `${x.ctype}/${x.id}`)).toEqual(expected.slice(offset, offset + limit));
    }
  });
});

describe('count and pages', () => {
  const objects = Array.from({ length: 30 }, (_, i) => person(i + 1, `Vorname${String(i).padStart(2, '0')}`, 'Schulz'));
  const others = Array.from({ length: 10 }, (_, i) => person(200 + i, 'Zacharias', 'Zett'));
  const ac = load([...objects, ...others, person(99, 'Otto', 'Other')]);

  it('counts all matches, not only the page', () => {
    const r = ac.search('schulz', null);
    expect(r.count).toBe(30);
    expect(r.page(0, 20)).toHaveLength(20);
    expect(r.page(20, 20)).toHaveLength(10);
  });

  it('returns consecutive, non-overlapping pages', () => {
    const r = ac.search('schulz', null);
    const all = r.page(0, 30);
    expect([...r.page(0, 7), ...r.page(7, 7), ...r.page(14, 16)]).toEqual(all);
    expect(new Set(all).size).toBe(30);
  });

  it('returns an empty page beyond the end, for limit 0 and for nonsense numbers', () => {
    const r = ac.search('schulz', null);
    expect(r.page(30, 20)).toEqual([]);
    expect(r.page(1000, 20)).toEqual([]);
    expect(r.page(0, 0)).toEqual([]);
    expect(r.page(0, -3)).toEqual([]);
    expect(r.page(Number.NaN, 2)).toEqual(r.page(0, 2));
    expect(ac.search(undefined, null).page(41, 5)).toEqual([]);
    expect(ac.search(undefined, null).page(40, 5)).toHaveLength(1);
  });

  it('keeps an earlier result valid after later searches', () => {
    const first = ac.search('schulz', null);
    const expected = first.page(0, 30);
    const other = ac.search('otto', null); // overwrites the searcher's scratch state
    expect(other.page(0, 5)).toHaveLength(1);
    expect(ac.search('zett', null).page(0, 20)).toHaveLength(10);
    expect(first.page(0, 30)).toEqual(expected);
    expect(first.page(3, 4)).toEqual(expected.slice(3, 7));
    expect(first.count).toBe(30);
  });
});

describe('robustness', () => {
  const ac = load(syntheticDirectory(200, 3));

  it('never throws and stays within the page for arbitrary q and models', () => {
    const models = fc.option(fc.subarray(['campus.Person', 'campus.Room', 'campus.Student', 'geo.Room', 'structure.Organization', 'structure.Person'] as DirectoryModel[]), { nil: null });
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'binary', maxLength: 40 }), { nil: undefined }), models, fc.nat(300), fc.nat(30), (q, m, offset, limit) => {
        const r = ac.search(q, m);
        const page = r.page(offset, limit);
        expect(r.count).toBeGreaterThanOrEqual(0);
        expect(page.length).toBe(Math.max(0, Math.min(limit, r.count - offset)));
      }),
      { numRuns: 300 },
    );
  });

  it('handles an empty directory', () => {
    const empty = load([]);
    expect(empty.size).toBe(0);
    expect(empty.search('müller', null).count).toBe(0);
    expect(empty.search(undefined, null).page(0, 20)).toEqual([]);
  });

  it('handles very long and very many query words', () => {
    expect(ac.search('x'.repeat(10_000), null).count).toBe(0);
    const many = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');
    expect(ac.search(many, null).count).toBe(0);
    expect(ac.search('hans '.repeat(5000), null).count).toBe(ac.search('hans', null).count);
  });
});

// ---- cross-check against a direct, unoptimized reading of the rules ------------------------

/** Ordered "ctype/id" of every match: filter, per-word best (tier, class), rank tuple, listing order. */
function reference(objects: DirectoryObject[], q: string, models: DirectoryModel[] | null): string[] {
  const words = queryWords(q);
  const order = new Map(listingOrder(objects).map((o, i) => [o, i]));
  const scored: { o: DirectoryObject; key: number[] }[] = [];
  for (const o of objects) {
    if (models && models.length > 0 && !models.includes(o.model)) continue;
    const terms = objectTerms(o);
    let edits = 0;
    let prefixes = 0;
    let others = 0;
    let ok = true;
    for (const w of words) {
      let best: [number, number] | null = null;
      for (const [term, cls] of terms) {
        for (const f of w.forms) {
          let tier = -1;
          if (term === f) tier = 0;
          else if (term.startsWith(f)) tier = 1;
          else if (w.maxEdits > 0 && Math.abs(term.length - f.length) <= w.maxEdits) {
            const d = osa(term, f);
            if (d <= w.maxEdits) tier = 1 + d;
          }
          if (tier < 0) continue;
          if (best === null || tier < best[0] || (tier === best[0] && cls < best[1])) best = [tier, cls];
        }
      }
      if (best === null) {
        ok = false;
        break;
      }
      edits += best[0] >= 2 ? best[0] - 1 : 0;
      prefixes += best[0] === 1 ? 1 : 0;
      others += best[1];
    }
    if (ok) scored.push({ o, key: [edits, prefixes, others, order.get(o)!] });
  }
  scored.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || a.key[3] - b.key[3]);
  return scored.map(({ o }) => `${o.model.toLowerCase()}/${o.id}`);
}

describe('agreement with the reference reading of the rules', () => {
  const objects = syntheticDirectory(600, 42);
  const decoded = decodeIndex(buildIndexJson(objects));
  // the server's file: broad words' first results and prefix codes, low thresholds so that many have them
  const server = autocompleteOf(readAutocompleteFile(autocompleteFile(decoded, prefixTops(decoded, 20, 30), prefixCodes(decoded, 20))));
  it.each([
    ['the browser module', load(objects)],
    ['the server, with prefix tops and codes', server],
  ])('gives the same matches in the same order for generated queries (%s)', (_, ac) => {
    const r = mulberry32(7);
    const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
    const mutate = (w: string) => {
      const i = Math.floor(r() * w.length);
      const op = Math.floor(r() * 4);
      if (op === 0) return w.slice(0, i) + w.slice(i + 1);
      if (op === 1) return w.slice(0, i) + 'x' + w.slice(i);
      if (op === 2) return w.slice(0, i) + 'e' + w.slice(i + 1);
      return w.slice(0, i) + w.slice(i + 1, i + 2) + w.slice(i, i + 1) + w.slice(i + 2);
    };
    const transform = (w: string) => {
      const x = r();
      if (x < 0.4) return w.slice(0, 1 + Math.floor(r() * w.length));
      if (x < 0.7) return mutate(w);
      if (x < 0.8) return w.toUpperCase();
      return w;
    };
    const modelSets: (DirectoryModel[] | null)[] = [null, null, ['campus.Person'], ['geo.Room', 'campus.Room'], ['structure.Organization', 'campus.Student']];
    let nonEmpty = 0;
    for (let i = 0; i < 400; i++) {
      // mostly words of one object (so that some match), sometimes a word of another one
      const words = pick(objects).presentation.split(/[\s,.()-]+/).filter(Boolean);
      const n = 1 + Math.floor(r() * 3);
      const chosen = Array.from({ length: n }, () => (r() < 0.15 ? pick(pick(objects).presentation.split(' ')) : pick(words)));
      const q = chosen.map(transform).join(r() < 0.2 ? '.' : ' ');
      const models = pick(modelSets);
      const expected = reference(objects, q, models);
      const result = ac.search(q, models);
      expect(result.count, q).toBe(expected.length);
      const got = result.page(0, 1000).map((s) => JSON.parse(s) as Row).map((x) => `${x.ctype}/${x.id}`);
      expect(got, q).toEqual(expected);
      // a first page alone: from the tops where the word has them
      const first = ac.search(q, models).page(0, 20).map((s) => JSON.parse(s) as Row).map((x) => `${x.ctype}/${x.id}`);
      expect(first, q).toEqual(expected.slice(0, 20));
      if (expected.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(180); // the comparison must not be vacuous
  });
});
