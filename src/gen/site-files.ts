// site.yaml, pages.yaml, categories.yaml: small fixed sets, with a few random choices of style.
import type { Random } from './random.ts';
import type { TreeWriter } from './tree-writer.ts';
import { toYaml } from './yaml-writer.ts';

export function writeSite(out: TreeWriter): void {
  out.write(
    'site.yaml',
    toYaml({ base_url: 'http://127.0.0.1:8000', timezone: 'Europe/Vienna', page_size: 20, max_page_size: 1000 }),
  );
}

export interface PageSpec {
  uid: number;
  pid: number;
  title: string;
  /** host name for site roots */
  domain?: string;
  /** relative weight as an event location in the page tree */
  weight: number;
}

// Two sites, nested up to four levels (root → section → subsection → leaf).
const PAGES: readonly PageSpec[] = [
  { uid: 1, pid: 0, title: 'Startseite', domain: 'www.meduni-beispiel.at', weight: 1 },
  { uid: 10, pid: 1, title: 'Veranstaltungen', weight: 4 },
  { uid: 11, pid: 10, title: 'Fortbildung', weight: 3 },
  { uid: 12, pid: 11, title: 'Ärztefortbildung', weight: 8 },
  { uid: 13, pid: 11, title: 'Pflegefortbildung', weight: 4 },
  { uid: 14, pid: 11, title: 'DFP-Kurse für Allgemeinmedizin', weight: 4 },
  { uid: 15, pid: 10, title: 'Kongresse & Tagungen', weight: 3 },
  { uid: 16, pid: 15, title: 'Jahrestagung 2025', weight: 2 },
  { uid: 17, pid: 15, title: 'Jahrestagung 2026', weight: 2 },
  { uid: 18, pid: 10, title: 'Öffentliche Vorträge', weight: 4 },
  { uid: 19, pid: 18, title: 'Mini Med Studium', weight: 3 },
  { uid: 20, pid: 1, title: 'Studium & Lehre', weight: 1 },
  { uid: 21, pid: 20, title: 'Lehrveranstaltungen', weight: 3 },
  { uid: 22, pid: 21, title: 'Übungen & Praktika', weight: 3 },
  { uid: 23, pid: 20, title: 'Prüfungstermine', weight: 2 },
  { uid: 24, pid: 1, title: 'Forschung', weight: 1 },
  { uid: 25, pid: 24, title: 'Forschungsseminare', weight: 3 },
  { uid: 26, pid: 25, title: 'Doktoratskolleg Gefäßbiologie', weight: 2 },
  { uid: 27, pid: 24, title: 'Kliniken & Institute', weight: 1 },
  { uid: 28, pid: 27, title: 'Universitätsklinik für Innere Medizin III', weight: 3 },
  { uid: 29, pid: 27, title: 'Institut für Physiologie', weight: 3 },
  { uid: 100, pid: 0, title: 'Campus Startseite', domain: 'campus.meduni-beispiel.at', weight: 1 },
  { uid: 101, pid: 100, title: 'Termine', weight: 3 },
  { uid: 102, pid: 101, title: 'Hörsaalprogramm', weight: 3 },
  { uid: 103, pid: 101, title: 'Bibliothek & Lernzentrum', weight: 1 },
  { uid: 104, pid: 103, title: 'Schulungen für Studierende', weight: 2 },
  { uid: 105, pid: 100, title: 'Gesundheit & Prävention', weight: 1 },
  { uid: 106, pid: 105, title: 'Öffentliche Gesundheitstage', weight: 2 },
  { uid: 107, pid: 100, title: 'Karriere', weight: 1 },
  { uid: 108, pid: 107, title: 'Weiterbildung für Führungskräfte', weight: 2 },
];

export function writePages(out: TreeWriter, rng: Random): readonly PageSpec[] {
  out.write('pages.yaml', toYaml(PAGES.map((page) => pageNode(rng, page))));
  return PAGES;
}

function pageNode(rng: Random, page: PageSpec): Record<string, unknown> {
  const node: Record<string, unknown> = { uid: page.uid, pid: page.pid, title: page.title };
  if (page.domain) {
    node.is_siteroot = true;
    node.domains = [page.domain];
    node.uri = `https://${page.domain}/`;
  } else {
    // Defaults are spelled out on some nodes (as a CMS export would) and left out on others.
    if (rng.chance(0.5)) node.is_siteroot = false;
    if (rng.chance(0.5)) node.domains = [];
    if (rng.chance(0.5)) node.uri = null;
  }
  return node;
}

interface CategorySpec {
  id: number;
  title: string;
  /** further keys, which the build keeps and shows in the expanded form */
  more?: Record<string, unknown>;
}

// Deliberately not in id order: the model sorts; the further keys must survive.
const CATEGORIES: readonly CategorySpec[] = [
  { id: 1, title: 'Fortbildung', more: { slug: 'fortbildung', color: '#00529b' } },
  { id: 2, title: 'Vortrag', more: { slug: 'vortrag' } },
  { id: 3, title: 'Kongress', more: { slug: 'kongress', color: '#b3001b', sort: 30 } },
  { id: 4, title: 'Workshop' },
  { id: 5, title: 'Öffentliche Veranstaltung', more: { slug: 'oeffentliche-veranstaltung', color: '#5a8f29' } },
  { id: 7, title: 'Ringvorlesung' },
  { id: 6, title: 'Seminar', more: { slug: 'seminar', description: 'Seminare für Studierende und Lehrende' } },
  { id: 8, title: 'Prüfung', more: { slug: 'pruefung', internal: true } },
  { id: 9, title: 'Kurs' },
  { id: 10, title: 'Symposium', more: { color: '#6f2c91' } },
  { id: 12, title: 'Weiterbildung für Gesundheitsberufe', more: { slug: 'weiterbildung-gesundheitsberufe', parent: 1 } },
  { id: 11, title: 'Informationsveranstaltung', more: { slug: 'info', color: null } },
];
export const CATEGORY_FORTBILDUNG = 1;

export function writeCategories(out: TreeWriter): number[] {
  out.write('categories.yaml', toYaml(CATEGORIES.map((c) => ({ id: c.id, title: c.title, ...c.more }))));
  return CATEGORIES.map((c) => c.id);
}
