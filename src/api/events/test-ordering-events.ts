// Test support (not a module of the serve path): a model of events made to stress `ordering` and
// `search` — ties on every orderable field, nulls, titles that order differently by code unit than
// by alphabet, umlauts spelt three ways, ß, Greek, an emoji, punctuation, HTML bodies with
// markup that must not be searched — and a reference of both parameters written the plain way,
// over the model's events, to compare the API's answers with.
import type { Event, Model } from '../../model/types.ts';
import { mulberry32 } from '../../util/mulberry32.ts';
import { fieldText, searchForms, SEARCH_FIELDS } from '../../store/format/search/search-text.ts';
import type { OrderField, OrderKey } from '../../query/events/ordering/ordering-param.ts';

export const ZONE = 'Europe/Vienna';
export const BASE_URL = 'https://events.example.org';

export const TITLES = [
  'Zoo', 'apple', 'Ärzte', 'arzt', 'Äpfel', 'Müller', 'Mueller', 'Muller', 'Weiß', 'weiss', 'Straße', 'STRASSE',
  'Σοφία ΟΔΟΣ', '😀 Emoji', '\ue000 privat', 'C++ Kurs', 'E-Mail Kurs', 'Herz-Kreislauf', 'Kurs', 'kurs', '100% Prävention',
  'Q&A: Fragen', 'e\u0301cole', 'École', 'Herzgesundheit', 'Vortrag über Gefäße',
];
const SENTENCES = [
  'Ein Abend über Herz und Gefäße.', 'Anmeldung per E-Mail bis 18:00.', 'Kostenbeitrag EUR 35,– vor Ort.',
  'Die Veranstaltung findet im Hörsaal statt.', 'Dr. Müller-Lüdenscheid spricht.', 'Fragen & Antworten (Q&A).',
  'Weitere Infos: www.example.org/herz', 'Großer Festsaal, Ebene 7', 'ÖSTERREICHISCHE Gesellschaft',
];
const BODIES = [
  '<p>Ein Abend über <strong>Herz</strong>gesundheit &amp; Gefäße</p><ul><li>Müller</li><li>Kurs</li></ul>',
  '<script>var versteckt = "geheimwort";</script><p>Sichtbar</p>',
  '<!-- kommentarwort --><p>&Auml;rzte und &auml;rztinnen</p>',
  '<p>Zeile eins<br>Zeile zwei</p><p>Absatz</p>',
  '<a href="https://example.org/linkziel">Linktext</a> per E-Mail',
  '<h2>Programm</h2><ol><li>Begrüßung</li><li>Straßenverkehr</li></ol>',
  '',
  'Nur Text, kein Markup: C++ und Q&amp;A',
  '<p title="a > b">Attribut</p><em>Herz</em>kurs',
];
const PLACES = [null, null, 'Hörsaal 1, Spitalgasse 23', 'Seminarraum 05.012', 'Online (Webex)', 'Großer Festsaal'];
const ORGANIZERS = [null, 'Institut für Herz', 'Klinik Müller', 'Prof. Dr. Weiß', 'ÖGK'];

const day = (d: number, h = 9) => Date.UTC(2025, 0, 1 + d, h);

/** A model of `n` events from `seed`. */
export function orderingModel(n: number, seed: number): Model {
  const rand = mulberry32(seed);
  const int = (k: number) => Math.floor(rand() * k);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)];
  const ids = new Set<number>();
  const events: Event[] = [];
  for (let i = 0; i < n; i++) {
    let id = 1 + int(10 * n);
    while (ids.has(id)) id = 1 + int(10 * n);
    ids.add(id);
    // few distinct instants: ties on start, end and last_modified
    const start = day(int(12), pick([9, 9, 14, 18]));
    const end = start + pick([1, 2, 2, 8]) * 3_600_000;
    events.push({
      id,
      title: `${pick(TITLES)}${rand() < 0.3 ? ` ${pick(TITLES)}` : ''}`,
      start,
      end,
      allday: false,
      url: null,
      link: null,
      page: null,
      categories: rand() < 0.5 ? [1] : [],
      header_image: null,
      media: [],
      related_media: [],
      organizer: pick(ORGANIZERS),
      location: pick(PLACES),
      contact: null,
      email: null,
      attending_fees_info: null,
      teaser: Array.from({ length: int(3) }, () => pick(SENTENCES)).join(' '),
      body: Array.from({ length: int(3) }, () => pick(BODIES)).join('\n'),
      register: rand() < 0.5,
      attending_fees: false,
      registration_end: rand() < 0.4 ? null : day(int(6)),
      dfp_points: rand() < 0.4 ? null : int(4),
      last_modified: day(int(4)),
      keywords: null,
      description: null,
      language: null,
      gallery: [],
      contact_box: [],
      groups: [],
      related_links: [],
    });
  }
  return {
    site: { base_url: BASE_URL, timezone: ZONE, page_size: 20, max_page_size: 1000, title: null },
    pages: new Map(),
    categories: [{ id: 1, title: 'Kurs' }],
    media: new Map(),
    events,
    directory: [],
  };
}

/** The list's own order: start descending, end descending, id ascending. */
export const defaultOrder = (a: Event, b: Event) => b.start - a.start || b.end - a.end || a.id - b.id;

function valueOf(e: Event, field: OrderField): number | string | null {
  return field === 'title' ? e.title : (e[field] as number | null);
}

/** `keys`, then the default order; a null is larger than any value (PostgreSQL). */
export function referenceOrder(keys: readonly OrderKey[]): (a: Event, b: Event) => number {
  return (a, b) => {
    for (const { field, descending } of keys) {
      const x = valueOf(a, field);
      const y = valueOf(b, field);
      let c = 0;
      if (x === null || y === null) c = x === y ? 0 : x === null ? 1 : -1;
      else c = x < y ? -1 : x > y ? 1 : 0;
      if (c !== 0) return descending ? -c : c;
    }
    return defaultOrder(a, b);
  };
}

/** Whether `e` matches every term, each in one of the searched fields (the documented semantics). */
export function referenceSearch(e: Event, terms: readonly string[]): boolean {
  const texts = SEARCH_FIELDS.map((f) => fieldText(f, e[f])).filter((t): t is string => t !== null);
  const forms = texts.flatMap((t) => searchForms(t));
  return terms.every((term) => searchForms(term).some((f) => f === '' || forms.some((text) => text.includes(f))));
}

/** Words, pieces and punctuation a user might search the model for, spelt in several ways. */
export function searchTerms(seed: number): string[] {
  const rand = mulberry32(seed);
  const int = (k: number) => Math.floor(rand() * k);
  const texts = [...TITLES, ...SENTENCES, ...BODIES, ...(PLACES.filter(Boolean) as string[]), ...(ORGANIZERS.filter(Boolean) as string[])];
  const words = texts.flatMap((t) => t.split(/[\s<>"=/]+/)).filter((w) => w.length > 0);
  const spellings = (w: string) => [w, w.toUpperCase(), w.toLowerCase(), w.normalize('NFD').replace(/\p{M}/gu, ''), w.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss')];
  const out = new Set<string>(['e-mail', 'c++', 'q&a', '&', '18:00', '35,–', 'www.example.org/herz', '-', '.', 'ss', 'ß', 'σ', 'ς', '😀', '\ue000', 'ecole', 'école', 'geheimwort', 'kommentarwort', 'linkziel', 'herzkurs', 'zeilezwei', 'x']);
  for (let i = 0; i < 300; i++) {
    const w = words[int(words.length)];
    const s = spellings(w)[int(5)];
    const from = int(Math.max(1, s.length - 1));
    out.add(rand() < 0.5 ? s : s.slice(from, from + 1 + int(6)));
  }
  return [...out].filter((t) => t.trim() !== '' && !/[,"']/.test(t));
}
