// Vocabulary shared by events and the directory: names, organizations, slugs.
import type { Random } from './random.ts';

export const FIRST_NAMES = [
  'Anna', 'Lukas', 'Sophie', 'David', 'Lena', 'Maximilian', 'Laura', 'Tobias', 'Katharina', 'Jakob', 'Julia',
  'Florian', 'Sarah', 'Matthias', 'Elisabeth', 'Stefan', 'Ayşe', 'Mehmet', 'Zeynep', 'Emre', 'Jürgen', 'Jörg',
  'Günther', 'Bärbel', 'Björn', 'Sören', 'Zoë', 'Chloé', 'Dragan', 'Milica', 'Nikola', 'Jovana', 'Agnieszka',
  'Łukasz', 'Tomáš', 'Petra', 'Andrea', 'Christoph', 'Thomas', 'Martina', 'Barbara', 'Wolfgang', 'Gerhard',
  'Ingrid', 'Helga', 'Franziska', 'Valentina', 'Elif', 'Deniz', 'Ömer', 'Gülşen', 'Anna-Lena', 'Karl-Heinz',
];
export const LAST_NAMES = [
  'Müller', 'Mueller', 'Weiß', 'Weiss', 'Öztürk', 'Groß', 'Gross', 'Jäger', 'Köhler', 'Krämer', 'Schüßler',
  'Grünwald', 'Schönberger', 'Hofer', 'Gruber', 'Huber', 'Wagner', 'Pichler', 'Steiner', 'Moser', 'Mayer',
  'Maier', 'Meier', 'Bauer', 'Berger', 'Fuchs', 'Eder', 'Fischer', 'Schmid', 'Schneider', 'Winkler', 'Weber',
  'Schwarz', 'Lang', 'Brunner', 'Baumgartner', 'Wimmer', 'Auer', 'Egger', 'Lehner', 'Haas', 'Wolf', 'Reiter',
  'Leitner', 'Aigner', 'Binder', 'Lechner', 'Wallner', 'Holzer', 'Koller', 'Strasser', 'Straßer', 'Ebner',
  'Nowak', 'Horvath', 'Kovačević', 'Petrović', 'Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Nguyen', 'Dvořák',
  'Löffler', 'Fröhlich', 'Böhm', 'Kühn', 'Hübner', 'Zöhrer', 'Größing', 'de Vries', "O'Brien",
];
export const PERSON_TITLES = [
  'Univ.-Prof. Dr.', 'Univ.-Prof. Dr. med.', 'Assoz. Prof. Dr.', 'Assoz. Prof. Priv.-Doz. Dr.', 'Priv.-Doz. Dr.',
  'Dr.', 'Dr. med.', 'Dr. med. univ.', 'Dr. med. dent.', 'Mag.', 'Mag. pharm.', 'MMag. Dr.', 'DI', 'Dipl.-Ing.',
  'Prof. Dr.', 'OA Dr.', 'Ing.',
];
export const STUDENT_TITLES = ['Mag.', 'DI', 'Dr.', 'Ing.'];
export const TITLES_AFTER = ['PhD', 'MSc', 'BSc', 'MBA', 'MA', 'MPH', 'PhD MSc', 'MSc MBA', 'FRCS'];

export const SUBJECTS = [
  'Kardiologie', 'Innere Medizin', 'Chirurgie', 'Dermatologie', 'Neurologie', 'Psychiatrie',
  'Kinder- und Jugendheilkunde', 'Allgemeinmedizin', 'Anästhesiologie', 'Radiologie', 'Pathologie', 'Hygiene',
  'Physiologie', 'Anatomie', 'Gefäßmedizin', 'Hals-, Nasen- und Ohrenheilkunde', 'Augenheilkunde',
  'Frauenheilkunde', 'Urologie', 'Orthopädie', 'Notfallmedizin', 'Public Health',
];
const CLINICS = [
  'Innere Medizin I', 'Innere Medizin II', 'Innere Medizin III', 'Chirurgie', 'Dermatologie', 'Frauenheilkunde',
  'Kinder- und Jugendheilkunde', 'Psychiatrie und Psychotherapie', 'Augenheilkunde und Optometrie',
  'Hals-, Nasen- und Ohrenkrankheiten', 'Radiologie und Nuklearmedizin', 'Neurologie', 'Urologie',
  'Orthopädie und Unfallchirurgie', 'Anästhesie, Allgemeine Intensivmedizin und Schmerztherapie', 'Notfallmedizin',
];
const INSTITUTES = [
  'Physiologie', 'Pathophysiologie und Allergieforschung', 'Anatomie', 'Histologie und Embryologie', 'Pharmakologie',
  'Gerichtsmedizin', 'Hygiene und Angewandte Immunologie', 'Medizinische Statistik', 'Krebsforschung',
  'Sozialmedizin', 'Medizinische Physik', 'Ethik und Recht in der Medizin', 'Gefäßbiologie und Thromboseforschung',
  'Spezifische Prophylaxe und Tropenmedizin', 'Medizinische Genetik',
];
const CENTRES = [
  'Public Health', 'Hirnforschung', 'Medizinische Physik und Biomedizinische Technik', 'Pathobiochemie und Genetik',
  'Physiologie und Pharmakologie', 'Anatomie und Zellbiologie', 'Virologie', 'Medizinische Statistik, Informatik und Intelligente Systeme',
];

export function personName(rng: Random, withTitle: boolean): string {
  const title = withTitle && rng.chance(0.7) ? `${rng.pick(PERSON_TITLES)} ` : '';
  return `${title}${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

export function organizationName(rng: Random): string {
  return rng.weighted<() => string>([
    [() => `Universitätsklinik für ${rng.pick(CLINICS)}`, 5],
    [() => `Institut für ${rng.pick(INSTITUTES)}`, 4],
    [() => `Zentrum für ${rng.pick(CENTRES)}`, 2],
    [() => `Klinische Abteilung für ${rng.pick(SUBJECTS)}`, 1],
    [() => `Klinische Abteilung für ${rng.pick(SUBJECTS)} der Universitätsklinik für ${rng.pick(CLINICS)}`, 2],
    [() => `${rng.pick(['Ambulanz', 'Sekretariat', 'Studienservice'])} der Universitätsklinik für ${rng.pick(CLINICS)}`, 1],
    [() => `Arbeitsgruppe ${rng.pick(LAST_NAMES)}`, 1],
    [() => `Forschungsgruppe ${rng.pick(SUBJECTS)}`, 1],
  ])();
}

/** ASCII transliteration for slugs and e-mail addresses. */
export function transliterate(text: string): string {
  return text
    .replace(/[Ää]/g, 'ae')
    .replace(/[Öö]/g, 'oe')
    .replace(/[Üü]/g, 'ue')
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .replace(/[Łł]/g, 'l')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export function slugify(text: string, maxLength = 50): string {
  const slug = transliterate(text).replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length <= maxLength) return slug;
  const cut = slug.slice(0, maxLength);
  return cut.includes('-') ? cut.slice(0, cut.lastIndexOf('-')) : cut;
}
