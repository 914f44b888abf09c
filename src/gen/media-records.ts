// Media records: file-backed ones and described ones, spread over media.yaml and media/**.
import type { Random } from './random.ts';
import { MEDIA_FILES, type MediaFile } from './media-bytes.ts';
import type { TreeWriter } from './tree-writer.ts';
import { toYaml } from './yaml-writer.ts';

const MIMETYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp4: 'video/mp4',
};

const IMAGE_NAMES = [
  'header-jahrestagung', 'hoersaalzentrum-aussen', 'Hörsaal 1 Panorama', 'fortbildung_banner', 'mini-med-studium',
  'Ärztefortbildung Titelbild', 'skills-lab', 'bibliothek-lesesaal', 'campus-luftbild', 'Gesundheitstag Plakat',
  'symposium-gefaessbiologie', 'Übungen Anatomie', 'kongress-2026-keyvisual', 'Weiß Vortrag Foto', 'labor_3-14',
];
export const DOCUMENT_NAMES = [
  'Programm Jahrestagung', 'Anmeldeformular_Fortbildung', 'Anfahrtsplan Hörsaalzentrum', 'Skriptum Übungen Histologie',
  'Präsentation_Weiß', 'Handout Schüßler', 'Einladung Symposium', 'Abstractband', 'Teilnahmebedingungen',
  'Hygienerichtlinien', 'Flyer Gesundheitstag', 'Aufzeichnung Vortrag Grünwald', 'Literaturliste', 'Stundenplan',
  'Prüfungsordnung', 'Raumplan Ebene 7',
];

export interface MediaPools {
  images: number[];
  documents: number[];
  all: number[];
}

interface MediaGroup {
  path: string;
  records: Record<string, unknown>[];
  /** write a single object instead of a list (the format allows both) */
  single?: boolean;
}

export function writeMedia(out: TreeWriter, rng: Random): MediaPools {
  for (const file of Object.values(MEDIA_FILES)) out.write(file.path, file.data);

  const pools: MediaPools = { images: [], documents: [], all: [] };
  let nextId = 101;
  const newId = (): number => {
    const id = nextId;
    nextId += rng.chance(0.15) ? rng.int(2, 9) : 1;
    pools.all.push(id);
    return id;
  };

  const fileBacked = fileBackedMedia(newId, pools);
  const images = Array.from({ length: 22 }, (_, i) => {
    const id = newId();
    pools.images.push(id);
    return describedMedia(rng, id, IMAGE_NAMES[i % IMAGE_NAMES.length], rng.weighted([['jpg', 6], ['png', 2], ['webp', 1]] as const), i);
  });
  const documents = Array.from({ length: 32 }, (_, i) => {
    const id = newId();
    pools.documents.push(id);
    const ext = rng.weighted([['pdf', 10], ['docx', 2], ['pptx', 2], ['mp4', 1]] as const);
    return describedMedia(rng, id, DOCUMENT_NAMES[i % DOCUMENT_NAMES.length], ext, i);
  });

  const groups: MediaGroup[] = [
    { path: 'media.yaml', records: [...images.slice(0, 10), ...documents.slice(0, 10)] },
    { path: 'media/dateien.yaml', records: fileBacked },
    { path: 'media/bilder/veranstaltungen.yaml', records: images.slice(10, 21) },
    { path: 'media/bilder/plakat.yaml', records: images.slice(21), single: true },
    { path: 'media/dokumente/2025/programme.yaml', records: documents.slice(10, 21) },
    { path: 'media/dokumente/2026/programme.yaml', records: documents.slice(21) },
  ];
  for (const group of groups) out.write(group.path, toYaml(group.single ? group.records[0] : group.records));
  return pools;
}

/** Records backed by real files: half leave size/mimetype to the build, half state them exactly. */
function fileBackedMedia(newId: () => number, pools: MediaPools): Record<string, unknown>[] {
  const specs: [MediaFile, string, boolean][] = [
    [MEDIA_FILES.png, 'meduni-logo.png', false],
    [MEDIA_FILES.png, 'Logo Medizinische Universität.png', true],
    [MEDIA_FILES.pdf, 'programm-beispiel.pdf', false],
    [MEDIA_FILES.pdf, 'Programm Übersicht.pdf', true],
    [MEDIA_FILES.txt, 'anfahrt.txt', false],
    [MEDIA_FILES.txt, 'Anfahrt Hörsaalzentrum.txt', true],
  ];
  return specs.map(([file, filename, explicit]) => {
    const id = newId();
    (file.mimetype.startsWith('image/') ? pools.images : pools.documents).push(id);
    const record: Record<string, unknown> = { id, filename, original: null, file: file.path };
    if (explicit) {
      record.mimetype = file.mimetype;
      record.size = file.data.byteLength;
    }
    return record;
  });
}

function describedMedia(rng: Random, id: number, baseName: string, ext: string, index: number): Record<string, unknown> {
  const year = 2025 + (index % 2);
  const filename = `${baseName}${index >= 15 ? `_${year}` : ''}.${ext}`;
  const original = rng.chance(0.7) ? `https://www.meduni-beispiel.at/fileadmin/user_upload/${year}/${encodeURIComponent(filename)}` : null;
  const size = ext === 'mp4' ? rng.int(5_000_000, 80_000_000) : ext === 'pdf' ? rng.int(30_000, 4_000_000) : rng.int(12_000, 900_000);
  return { id, filename, original, mimetype: MIMETYPES[ext], size };
}
