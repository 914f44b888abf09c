// Test support (not a module of the serve path): synthetic events whose texts behave like German
// prose for the filter indexes (compound nouns from real stems, a Zipf-distributed vocabulary,
// frequent function words, umlauts and ß), for benchmarks and for tests that need a large table.
import { mulberry32 } from '../../util/mulberry32.ts';
import { buildTable, type FixtureEvent } from './table-fixture.ts';
import type { EventTable } from '../../store/format/event-table.ts';

/** The generator and the vocabulary it draws from, all from one seeded sequence. */
export function syntheticEvents(seed = 42) {
  const rand = mulberry32(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)];
  /** Zipf-ish pick: low indices far more frequent, as words are in real text */
  const zipf = <T>(a: readonly T[]): T => a[Math.floor(a.length * rand() ** 3)];

  const STEMS = ('kardio logie neuro chirurg medizin fortbildung praxis klinik therapie diagnose ' +
    'patient pflege innere allgemein kinder jugend psych iatrie onko haut derma rheuma ortho päd ' +
    'notfall intensiv anästhesie radio nuklear labor hygiene impf schutz sicherheit recht ethik ' +
    'kommunikation führung management qualität forschung studie daten statistik methode lehre ' +
    'prüfung ausbildung weiter kurs tagung gespräch runde fall bericht leitlinie versorgung ' +
    'schmerz schlaf ernährung sport bewegung herz lunge niere leber magen darm blut gefäß nerven ' +
    'gehirn auge ohr zahn knochen gelenk muskel haut allergie infekt virus bakterien antibiotika ' +
    'arznei mittel dosis wirkung neben straße weiß groß über grün öffentlich gesundheit').split(' ');
  const FUNCTION_WORDS = ('der die das und in zu den mit von für ist im dem nicht ein eine als auch es an ' +
    'werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum ' +
    'war haben nur oder aber vor zur bis mehr durch man sowie neue neuen aktuelle wichtige').split(' ');
  const LETTERS = 'eeeeeeeennnnnnniiiiiiissssssrrrrrrraaaaaattttttddddddhhhhhuuuullllccccggggmmmoooobbwwffkkzzpvüäößj';
  const randomWord = () => Array.from({ length: 3 + int(8) }, () => LETTERS[int(LETTERS.length)]).join('');
  const compound = () => Array.from({ length: 1 + int(3) }, () => pick(STEMS)).join('') + pick(['', '', 'en', 'ung', 'ische', 'er', 's']);
  const VOCAB = Array.from({ length: 20000 }, () => (rand() < 0.6 ? compound() : randomWord()));
  const capital = (w: string) => w[0].toUpperCase() + w.slice(1);
  const NOUNS = VOCAB.slice(0, 3000).map(capital);
  const KINDS = ['Workshop', 'Seminar', 'Vortrag', 'Fortbildung', 'Journal Club', 'Symposium', 'Kongress', 'Übung', 'Führung', 'Webinar'];
  const PEOPLE = Array.from({ length: 600 }, () => `${pick(['Dr.', 'Prof.', 'Mag.', ''])} ${capital(randomWord())} ${capital(randomWord())}`.trim());
  const PLACES = Array.from({ length: 300 }, () => `Hörsaal ${int(40)}, ${capital(pick(STEMS))}straße ${1 + int(120)}, Wien`);

  function sentence(): string {
    const n = 5 + int(12);
    const words = Array.from({ length: n }, () => (rand() < 0.45 ? pick(FUNCTION_WORDS) : rand() < 0.4 ? zipf(NOUNS) : zipf(VOCAB)));
    return capital(words.join(' ')) + '.';
  }
  function teaser(): string {
    const target = 40 + int(260);
    let s = '';
    while (s.length < target) s += (s ? ' ' : '') + sentence();
    return s.slice(0, 300);
  }

  /** a flat copy: strings built with += are rope trees that real content (parsed files) is not */
  const flat = (s: string) => JSON.parse(JSON.stringify(s)) as string;

  function makeEvents(n: number): FixtureEvent[] {
    const t0 = Date.UTC(2021, 0, 1);
    const span = 5 * 365 * 86_400_000;
    return Array.from({ length: n }, (_, i) => {
      const start = t0 + Math.floor((rand() * span) / 900_000) * 900_000;
      const person = rand() < 0.85 ? pick(PEOPLE) : null;
      return {
        id: i + 1,
        title: flat(`${pick(KINDS)}: ${zipf(NOUNS)} ${zipf(VOCAB)} ${rand() < 0.5 ? zipf(NOUNS) : ''} ${int(1000)}`.replace(/ +/g, ' ').trim()),
        start,
        end: start + (1 + int(8)) * 3_600_000,
        registration_end: rand() < 0.5 ? null : start - int(30) * 86_400_000,
        last_modified: t0 + int(span),
        organizer: person,
        location: rand() < 0.9 ? pick(PLACES) : null,
        teaser: flat(teaser()),
        contact: person,
        email: person ? `${person.split(' ').pop()!.toLowerCase()}@example.org` : null,
        dfp_points: rand() < 0.3 ? null : int(21),
        allday: rand() < 0.2,
        register: rand() < 0.5,
        attending_fees: rand() < 0.3,
        categories: [...new Set(Array.from({ length: 1 + int(3) }, () => 1 + int(40)))],
        groups: rand() < 0.5 ? [1 + int(10)] : [],
      };
    });
  }

  /** `n` events in a table, as the server loads it. */
  function table(n: number): EventTable {
    return buildTable(makeEvents(n));
  }

  return { rand, int, pick, zipf, flat, STEMS, KINDS, NOUNS, PEOPLE, PLACES, makeEvents, table };
}
