// One event at a time: its keys in front-matter order and its body as structured blocks.
import type { Random } from './random.ts';
import { escapeAttribute as escapeHtml } from 'entities';
import type { Block } from './event-body.ts';
import { AUDIENCES, EVENT_KINDS, EXTERNAL_LINKS, FEE_INFOS, HINWEISE, LITERAL_SPECIAL_TITLES, LOCATIONS, PRACTICALS, PROGRAMME_ITEMS, SENTENCES, TOPICS } from './event-vocabulary.ts';
import { DOCUMENT_NAMES, type MediaPools } from './media-records.ts';
import { CATEGORY_FORTBILDUNG, type PageSpec } from './site-files.ts';
import { organizationName, personName, slugify, SUBJECTS, transliterate } from './vocabulary.ts';
import { DAY, DAYS_IN_RANGE, FIRST_DAY, randomTimestamp, wallOnDay } from './wall-time.ts';


export type EventFields = Record<string, unknown>;

export interface EventContext {
  pages: readonly PageSpec[];
  categories: number[];
  media: MediaPools;
}

/** Events as generated, waiting to be written in one of the three file forms. */
export interface GeneratedEvent {
  id: number;
  startWall: number;
  title: string;
  fields: EventFields;
  blocks: Block[];
}

export class EventGenerator {
  private nextId = 1000;
  private nextRelatedMediaId = 1;
  /** recent timed starts; some events reuse one so that equal start times occur */
  private readonly recentStarts: number[] = [];
  private readonly pageEntries: (readonly [PageSpec, number])[];

  constructor(
    private readonly rng: Random,
    private readonly ctx: EventContext,
  ) {
    this.pageEntries = ctx.pages.map((page) => [page, page.weight] as const);
  }

  next(): GeneratedEvent {
    const rng = this.rng;
    const id = this.takeId();
    const title = this.title();
    const categories = this.categories(title);
    const allday = rng.chance(0.1);
    const [startWall, endWall] = allday ? this.alldaySpan() : this.timedSpan();
    const register = rng.chance(0.45);
    const fees = rng.chance(0.35);
    const fortbildung = categories.includes(CATEGORY_FORTBILDUNG) || title.startsWith('Ärztefortbildung');
    const dfpPoints = rng.chance(fortbildung ? 0.7 : 0.08) ? rng.int(1, 12) : null;
    const contact = rng.chance(0.7) ? personName(rng, true) : null;
    // Exporters write every key; hand-written files leave most defaults out.
    const fullExport = rng.chance(0.3);
    const f = new FieldWriter(rng, fullExport);

    f.set('id', id);
    f.set('title', title);
    f.set('start', randomTimestamp(rng, startWall));
    f.set('end', randomTimestamp(rng, endWall));
    f.opt('allday', allday, false);
    f.opt('url', rng.chance(0.7) ? `https://www.meduni-beispiel.at/veranstaltungen/detail/${slugify(title)}-${id}/` : null, null);
    f.opt('link', rng.chance(0.3) ? rng.pick(EXTERNAL_LINKS) : null, null);
    f.opt('page', rng.chance(0.85) ? rng.weighted(this.pageEntries).uid : null, null);
    f.opt('categories', categories, []);
    f.opt('header_image', rng.chance(0.6) ? rng.pick(this.ctx.media.images) : null, null);
    f.opt('media', rng.sample(this.ctx.media.documents, rng.weighted([[0, 5], [1, 3], [2, 1], [3, 1]])), []);
    f.opt('related_media', this.relatedMedia(startWall), []);
    f.opt('organizer', rng.chance(0.85) ? (rng.chance(0.6) ? organizationName(rng) : personName(rng, true)) : null, null);
    f.opt('location', rng.chance(0.9) ? rng.pick(LOCATIONS) : null, null);
    f.opt('contact', contact, null);
    f.opt('email', rng.chance(contact ? 0.85 : 0.3) ? this.email(contact) : null, null);
    f.opt('attending_fees_info', fees ? rng.pick(FEE_INFOS) : rng.chance(0.2) ? 'Die Teilnahme ist kostenlos.' : null, null);
    if (rng.chance(0.5)) f.set('teaser', this.teaser(title));
    f.opt('register', register, false);
    f.opt('attending_fees', fees, false);
    f.opt('registration_end', rng.chance(register ? 0.8 : 0.05) ? randomTimestamp(rng, this.registrationEnd(startWall)) : null, null);
    f.opt('dfp_points', dfpPoints, null);
    f.set('last_modified', randomTimestamp(rng, this.lastModified(startWall)));
    f.opt('keywords', rng.chance(0.05) ? `${rng.pick(SUBJECTS)}, Fortbildung, DFP` : null, null);
    f.opt('description', rng.chance(0.03) ? `${title} – Veranstaltung der Medizinischen Universität` : null, null);
    f.opt('language', rng.chance(0.06) ? rng.weighted([['de', 5], ['en', 1]]) : null, null);
    f.opt('gallery', [], []);
    f.opt('contact_box', [], []);
    f.opt('groups', rng.chance(0.03) ? [1] : [], []);
    f.opt('related_links', [], []);
    if (rng.chance(0.01)) f.set('extra', { cms_uid: id * 7 + 3, workflow_state: 'published', translations: [] });

    return { id, startWall, title, fields: f.fields, blocks: this.body(title, dfpPoints, register) };
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId += this.rng.chance(0.1) ? this.rng.int(2, 10) : 1;
    return id;
  }

  private title(): string {
    const rng = this.rng;
    const topic = rng.pick(TOPICS);
    return rng.weighted<() => string>([
      [() => `${rng.pick(EVENT_KINDS)}: ${topic}`, 10],
      [() => topic, 5],
      [() => rng.pick(PRACTICALS), 2],
      [() => `${rng.int(10, 65)}. Jahrestagung der Österreichischen Gesellschaft für ${rng.pick(SUBJECTS)}`, 1],
      [() => `Weiß-Symposium: ${topic}`, 0.5],
      [() => rng.pick(LITERAL_SPECIAL_TITLES)(topic), 0.6],
    ])();
  }

  private categories(title: string): number[] {
    const picked = this.rng.sample(this.ctx.categories, this.rng.weighted([[0, 10], [1, 55], [2, 25], [3, 10]]));
    if (title.startsWith('Ärztefortbildung') && picked.length > 0 && !picked.includes(CATEGORY_FORTBILDUNG)) {
      picked[0] = CATEGORY_FORTBILDUNG;
    }
    return picked;
  }

  private timedSpan(): [number, number] {
    const rng = this.rng;
    if (this.recentStarts.length > 0 && rng.chance(0.06)) {
      const start = rng.pick(this.recentStarts);
      return [start, start + rng.pick([60, 90, 120]) * 60_000];
    }
    const day = rng.int(0, DAYS_IN_RANGE - 1);
    const start = wallOnDay(rng, day, 7, 20, false);
    this.recentStarts.push(start);
    if (this.recentStarts.length > 32) this.recentStarts.shift();

    if (rng.chance(0.05) && day < DAYS_IN_RANGE - 1) {
      // Congress over several days, ending in the afternoon, never past the range.
      const extraDays = Math.min(rng.int(1, 3), DAYS_IN_RANGE - 1 - day);
      return [start, wallOnDay(rng, day + extraDays, 13, 18, false)];
    }
    const startHour = new Date(start).getUTCHours();
    const maxMinutes = (23 - startHour) * 60; // ends by 23:xx the same day
    const minutes = Math.min(rng.pick([45, 60, 90, 90, 120, 120, 180, 240, 480]), maxMinutes);
    return [start, start + minutes * 60_000];
  }

  /** All-day events start at local midnight; single days end at 23:59:59 or at the start. */
  private alldaySpan(): [number, number] {
    const rng = this.rng;
    const day = rng.int(0, DAYS_IN_RANGE - 1);
    const start = FIRST_DAY + day * DAY;
    const shape = rng.weighted([['same-day', 6], ['instant', 2], ['multi-day', 2]] as const);
    if (shape === 'instant') return [start, start];
    const lastDay = shape === 'multi-day' ? Math.min(day + rng.int(1, 3), DAYS_IN_RANGE - 1) : day;
    return [start, FIRST_DAY + lastDay * DAY + DAY - 1000];
  }

  private relatedMedia(startWall: number): Record<string, unknown>[] {
    const rng = this.rng;
    const count = rng.weighted([[0, 12], [1, 5], [2, 2], [3, 1]]);
    return Array.from({ length: count }, () => ({
      id: this.nextRelatedMediaId++,
      media: rng.pick(this.ctx.media.all),
      datetime: randomTimestamp(rng, this.lastModified(startWall)),
      title: rng.chance(0.7) ? rng.pick(DOCUMENT_NAMES) : null,
      description: rng.chance(0.4) ? rng.pick(SENTENCES) : null,
    }));
  }

  private email(contact: string | null): string {
    if (!contact) return this.rng.pick(['fortbildung@meduni-beispiel.at', 'veranstaltungen@meduni-beispiel.at', 'office@meduni-beispiel.at']);
    const [first, ...rest] = contact.split(' ').filter((part) => !part.endsWith('.') && part !== 'DI' && part !== 'OA');
    const local = [first, rest.at(-1) ?? ''].filter(Boolean).map((part) => transliterate(part).replace(/[^a-z0-9-]/g, ''));
    return `${local.join('.')}@meduni-beispiel.at`;
  }

  private teaser(title: string): string {
    const rng = this.rng;
    return rng.weighted<() => string>([
      [() => `${title} – ein kompakter Überblick für ${rng.pick(AUDIENCES)}.`, 3],
      [() => rng.pick(SENTENCES), 2],
      [() => `Wir laden herzlich ein: ${title}. ${rng.pick(SENTENCES)}`, 1],
    ])();
  }

  /** 1–21 days before the start day, at noon or just before midnight: always before the start. */
  private registrationEnd(startWall: number): number {
    const startDay = Math.floor((startWall - FIRST_DAY) / DAY);
    const hourMinute = this.rng.pick([12 * 60, 23 * 60 + 59]);
    return FIRST_DAY + (startDay - this.rng.int(1, 21)) * DAY + hourMinute * 60_000;
  }

  /** Mostly weeks before the start, sometimes a correction shortly after it. */
  private lastModified(startWall: number): number {
    const startDay = Math.floor((startWall - FIRST_DAY) / DAY);
    const day = this.rng.chance(0.1) ? startDay + this.rng.int(1, 10) : startDay - this.rng.int(1, 150);
    return wallOnDay(this.rng, day, 6, 23, true);
  }

  private body(title: string, dfpPoints: number | null, register: boolean): Block[] {
    const rng = this.rng;
    const audience = `Die Veranstaltung „${title}“ richtet sich an ${rng.pick(AUDIENCES)}.`;
    const sentences = rng.sample(SENTENCES, rng.int(1, 4));
    // Short bodies keep the derived teaser under 300 code points (not cut).
    const short = rng.chance(0.15);
    const blocks: Block[] = [{ p: [[audience, ...(short ? sentences.slice(0, 1) : sentences)].join(' ')] }];
    if (short) return blocks;
    if (rng.chance(0.5)) {
      blocks.push({ h: 'Programm' });
      // Programme items keep their natural order (welcome first, summary last).
      const items = rng.sample(PROGRAMME_ITEMS, rng.int(3, 5)).sort((a, b) => PROGRAMME_ITEMS.indexOf(a) - PROGRAMME_ITEMS.indexOf(b));
      blocks.push(rng.chance(0.7) ? { ul: items } : { ol: items });
    }
    blocks.push({
      p: [
        register ? { strong: 'Anmeldung erforderlich.' } : 'Eine Anmeldung ist nicht erforderlich.',
        ' Die Teilnehmerzahl ist ',
        { em: 'begrenzt' },
        '. Weitere Informationen finden Sie ',
        { link: 'auf der Veranstaltungsseite', href: `https://www.meduni-beispiel.at/veranstaltungen/${slugify(title, 30)}` },
        '.',
      ],
    });
    if (rng.chance(0.2)) {
      const text = dfpPoints !== null ? `Die Veranstaltung ist mit <strong>${dfpPoints} DFP-Punkten</strong> approbiert.` : escapeHtml(rng.pick(HINWEISE));
      blocks.push({ html: `<div class="hinweis">\n<p>${text}</p>\n</div>` });
    }
    return blocks;
  }
}

/** Collects front-matter keys in a fixed order, leaving out defaults where a person would. */
class FieldWriter {
  readonly fields: EventFields = {};

  constructor(
    private readonly rng: Random,
    private readonly writeDefaults: boolean,
  ) {}

  set(key: string, value: unknown): void {
    this.fields[key] = value;
  }

  /** Keys whose value equals the default are written by exports and ~30% of the rest. */
  opt(key: string, value: unknown, defaultValue: null | false | []): void {
    const isDefault = Array.isArray(defaultValue) ? Array.isArray(value) && value.length === 0 : value === defaultValue;
    // Always draw, so the random stream does not depend on the outcome.
    const keep = this.rng.chance(0.3);
    if (!isDefault || this.writeDefaults || keep) this.fields[key] = value;
  }
}
