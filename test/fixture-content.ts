// A small content folder with every field used, for tests that need known values.
export const FIXTURE_FILES: Record<string, string> = {
  'site.yaml': `base_url: https://events.example.at/api/
timezone: Europe/Vienna
page_size: 2
max_page_size: 3
`,
  'pages.yaml': `- uid: 1
  pid: 0
  title: Startseite
  is_siteroot: true
  domains: [www.example.at]
  uri: https://www.example.at/
- uid: 5
  pid: 1
  title: Veranstaltungen
- uid: 9
  pid: 5
  title: Fortbildung für Ärzte
`,
  'categories.yaml': `- id: 3
  title: Vortrag
  slug: vortrag
  color: "#ff0000"
- id: 7
  title: Öffentlich
`,
  'media.yaml': `- id: 11
  filename: plakat.pdf
  original: https://www.example.at/fileadmin/plakat.pdf
  mimetype: application/pdf
  size: 12345
- id: 12
  filename: bild.png
  file: media/bild.png
`,
  'media/bild.png': 'PNGDATA',
  'events/2025/vortrag.md': `---
id: 42
title: Vortrag über Herzgesundheit
start: 2025-05-09T16:00:00+02:00
end: 2025-05-09 18:30
allday: false
url: https://www.example.at/veranstaltungen/42
link: https://herz.example.at/
page: 9
categories: [7, 3]
header_image: 12
media: [11, 12]
related_media:
  - id: 501
    media: 11
    datetime: 2025-04-01T08:00:00Z
    title: Programm
    description: null
organizer: Univ.-Prof. Dr. Anna Müller
location: Hörsaal 1, Spitalgasse 23, 1090 Wien
contact: Sekretariat Weiß
email: sekretariat@example.at
attending_fees_info: 20 € für Nichtmitglieder
register: true
registration_end: 2025-05-01
attending_fees: true
dfp_points: 4
last_modified: 2025-04-02T10:15:00+02:00
keywords: null
language: de
groups: [1]
---
Ein **Abend** über das Herz & die Gefäße.

<div class="hinweis">Bitte pünktlich!</div>
`,
  'events/more/list.yaml': `- id: 43
  title: Sommerfest
  start: 2025-06-01
  end: 2025-06-01T23:59:59
  allday: true
  body: "  <p>Für alle.</p>  "
  last_modified: 2025-05-20T12:00:00Z
- id: 45
  title: Kurs B
  start: 2025-06-01T10:00
  end: 2025-06-02T10:00
  teaser: Ausdrücklich gesetzt
  last_modified: 2025-05-20T12:00:00Z
- id: 44
  title: Kurs A
  start: 2025-06-01T10:00
  end: 2025-06-02T10:00
  last_modified: 2025-05-20T12:00:00Z
`,
  'directory/people.yaml': `- model: campus.Person
  id: 1
  title: Univ.-Prof. Dr.
  first_name: Anna
  last_name: Müller
  title_after: PhD
- model: geo.Room
  id: 2
  name: Hörsaal 1
  code: HS1
  level_id: 3
  room_id: 17
- model: structure.Organization
  id: 3
  name: Institut für Physiologie
`,
};

/** Event 42 exactly as interface.md §2.1 renders it with the fixture's site.yaml. */
export const EVENT_42 = {
  id: 42,
  url: 'https://www.example.at/veranstaltungen/42',
  media: [
    { url: 'https://events.example.at/api/cms/media/11/', original: 'https://www.example.at/fileadmin/plakat.pdf', mimetype: 'application/pdf', filename: 'plakat.pdf', size: 12345 },
    { url: 'https://events.example.at/api/cms/media/12/', original: null, mimetype: 'image/png', filename: 'bild.png', size: 7 },
  ],
  gallery: [],
  contact_box: [],
  breadcrumb: [
    { uid: 9, pid: 5, title: 'Fortbildung für Ärzte', is_siteroot: false, domains: [], uri: null },
    { uid: 5, pid: 1, title: 'Veranstaltungen', is_siteroot: false, domains: [], uri: null },
    { uid: 1, pid: 0, title: 'Startseite', is_siteroot: true, domains: ['www.example.at'], uri: 'https://www.example.at/' },
  ],
  categories: [7, 3],
  groups: [1],
  link: 'https://herz.example.at/',
  header_image: { url: 'https://events.example.at/api/cms/media/12/', original: null, mimetype: 'image/png', filename: 'bild.png', size: 7 },
  related_links: [],
  related_media: [
    {
      id: 501,
      media: { url: 'https://events.example.at/api/cms/media/11/', original: 'https://www.example.at/fileadmin/plakat.pdf', mimetype: 'application/pdf', filename: 'plakat.pdf', size: 12345 },
      datetime: '2025-04-01T10:00:00+02:00',
      title: 'Programm',
      description: null,
    },
  ],
  start: '2025-05-09T16:00:00+02:00',
  end: '2025-05-09T18:30:00+02:00',
  allday: false,
  title: 'Vortrag über Herzgesundheit',
  organizer: 'Univ.-Prof. Dr. Anna Müller',
  location: 'Hörsaal 1, Spitalgasse 23, 1090 Wien',
  teaser: 'Ein Abend über das Herz & die Gefäße. Bitte pünktlich!',
  body: '<p>Ein <strong>Abend</strong> über das Herz &amp; die Gefäße.</p>\n<div class="hinweis">Bitte pünktlich!</div>',
  keywords: null,
  description: null,
  register: true,
  registration_end: '2025-05-01T00:00:00+02:00',
  attending_fees: true,
  attending_fees_info: '20 € für Nichtmitglieder',
  dfp_points: 4,
  contact: 'Sekretariat Weiß',
  email: 'sekretariat@example.at',
  last_modified: '2025-04-02T10:15:00+02:00',
  language: 'de',
};

/** List order of the fixture: start desc, end desc, id asc. */
export const FIXTURE_ORDER = [44, 45, 43, 42];

/**
 * Media files a browser would run a script in (SVG, HTML), beside a PDF and a PNG of the fixture:
 * add them to FIXTURE_FILES where the sandbox of such files is the subject.
 */
export const SCRIPTED_MEDIA_FILES: Record<string, string> = {
  'media/scripted.yaml': `- id: 21
  filename: plan.svg
  file: media/plan.svg
- id: 22
  filename: seite.html
  file: media/seite.html
`,
  'media/plan.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>',
  'media/seite.html': '<!doctype html><script>alert(document.domain)</script>',
};
