// Issue 16, "correctness above all": after every step of a seeded random sequence of edits, the
// incremental build (build cache, previous dist carried over) writes a dist/ byte-identical to a
// clean build of the same content without cache into another folder — every file but
// changes.json, which is checked against the public files that really changed. A corrupt and a
// foreign cache are among the steps, and must change nothing but speed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { build, type BuildResult } from '../src/pipeline/build.ts';
import { cacheIdentity } from '../src/pipeline/cache/keys.ts';
import { listFiles } from '../src/util/same-files.ts';
import { generateContent } from '../src/gen/content-generator.ts';
import { mulberry32 } from '../src/util/mulberry32.ts';
import { removeDir, tempDir } from './helpers.ts';

const random = mulberry32;

const root = tempDir('aula-incremental-');
afterAll(() => removeDir(root));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** rel → sha256 of every file of a dist */
function digests(dist: string): Map<string, string> {
  return new Map(listFiles(dist).map((rel) => [rel, sha(readFileSync(join(dist, rel)))]));
}

function problemsOf(result: BuildResult): string[] {
  return result.ok ? [] : result.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.key}: ${p.message}`);
}

interface Site {
  content: string;
  pick: <T>(list: readonly T[]) => T;
  rnd: () => number;
  /** the next step's edit, when an edit calls for its fix (a broken file, another zone) */
  undo: { what: string; file: string; text: string } | null;
  serial: number;
}

const filesUnder = (site: Site, folder: string) => listFiles(join(site.content, folder)).map((f) => `${folder}/${f}`);
const read = (site: Site, rel: string) => readFileSync(join(site.content, rel), 'utf8');
const write = (site: Site, rel: string, text: string) => {
  mkdirSync(dirname(join(site.content, rel)), { recursive: true });
  writeFileSync(join(site.content, rel), text);
};

/** Replaces one randomly chosen line matching `pattern` (multiline) with `replace(line)`. */
function editLine(site: Site, rel: string, pattern: RegExp, replace: (line: string) => string): boolean {
  const text = read(site, rel);
  const matches = [...text.matchAll(pattern)];
  if (matches.length === 0) return false;
  const m = site.pick(matches);
  write(site, rel, text.slice(0, m.index) + replace(m[0]) + text.slice(m.index! + m[0].length));
  return true;
}

type Edit = (site: Site) => string;

/** The edits that touch event, directory or categories files alone: a build after a good one takes its prior (builds over it). */
const PRIOR_EDITS = new Set([
  'add an event', 'add an event to a multi-event file', 'change an event', "change an event's start",
  'change a body whose teaser is derived', 'delete an event file', 'delete an event from a multi-event file',
  'rename an event file', 'move an event file to another folder', 'rename an event folder',
  'change a directory object', 'add a directory file', 'delete a directory file', 'move a directory file',
  'change a category events expand',
]);

const eventFiles = (site: Site, ext: string) => filesUnder(site, 'events').filter((f) => f.endsWith(ext));

/** Reads a YAML list file, changes it, writes it back. */
function editList(site: Site, rel: string, change: (list: Record<string, unknown>[]) => void): void {
  const list = parseYaml(read(site, rel)) as Record<string, unknown>[];
  change(list);
  write(site, rel, stringifyYaml(list));
}

const EDITS: Record<string, Edit> = {
  'add an event': (site) => {
    const n = site.serial++;
    const day = String(1 + (n % 28)).padStart(2, '0');
    const rel = site.pick(['events/2025/06', 'events/2026/01', 'events/neu']) + `/added-${n}.md`;
    write(site, rel, `---\nid: ${900_000 + n}\ntitle: Neue Veranstaltung ${n}\nstart: 2025-06-${day}T10:00:00\nend: 2025-06-${day} 12:00:00\nlast_modified: 2025-05-${day}T08:00:00\ncategories:\n  - 1\n---\nText ${n}.\n`);
    return rel;
  },
  'add an event to a multi-event file': (site) => {
    const rel = site.pick(eventFiles(site, '.yaml'));
    const n = site.serial++;
    editList(site, rel, (list) => list.splice(Math.floor(site.rnd() * (list.length + 1)), 0, {
      id: 950_000 + n, title: `Eingefügt ${n}`, start: '2026-02-03T09:00:00', end: '2026-02-03T10:00:00', last_modified: '2026-01-01T00:00:00Z', body: `<p>Eingefügt ${n}</p>`,
    }));
    return rel;
  },
  'change an event': (site) => {
    const rel = site.pick(filesUnder(site, 'events'));
    const n = site.serial++;
    editLine(site, rel, /^(?: {2})?title: .*$/gm, (line) => `${line.startsWith(' ') ? '  ' : ''}title: Geändert ${n}`);
    return rel;
  },
  // another start moves the event elsewhere in the list: every page between its places changes
  "change an event's start": (site) => {
    const rel = site.pick(filesUnder(site, 'events'));
    const day = String(1 + (site.serial++ % 28)).padStart(2, '0');
    editLine(site, rel, /^(?: {2})?start: .*$/gm, (line) => `${line.startsWith(' ') ? '  ' : ''}start: 2024-0${1 + Math.floor(site.rnd() * 9)}-${day}T07:30:00`);
    return rel;
  },
  'change a body whose teaser is derived': (site) => {
    const rel = site.pick(eventFiles(site, '.md').filter((f) => !/^teaser:/m.test(read(site, f))));
    write(site, rel, `${read(site, rel).trimEnd()}\n\nNachtrag ${site.serial++}: **geänderter** Text &amp; mehr.\n`);
    return rel;
  },
  'delete an event file': (site) => {
    const rel = site.pick(filesUnder(site, 'events'));
    unlinkSync(join(site.content, rel));
    return rel;
  },
  'delete an event from a multi-event file': (site) => {
    const rel = site.pick(eventFiles(site, '.yaml'));
    editList(site, rel, (list) => list.splice(Math.floor(site.rnd() * list.length), 1));
    return rel;
  },
  'rename an event file': (site) => {
    const rel = site.pick(filesUnder(site, 'events'));
    const to = rel.replace(/([^/]+)$/, `renamed-${site.serial++}-$1`);
    renameSync(join(site.content, rel), join(site.content, to));
    return `${rel} → ${to}`;
  },
  'move an event file to another folder': (site) => {
    const rel = site.pick(filesUnder(site, 'events'));
    const to = `${site.pick(['events/2024/12', 'events/2026/05', 'events/import'])}/moved-${site.serial++}-${rel.split('/').pop()}`;
    mkdirSync(dirname(join(site.content, to)), { recursive: true });
    renameSync(join(site.content, rel), join(site.content, to));
    return `${rel} → ${to}`;
  },
  'rename an event folder': (site) => {
    const folders = [...new Set(filesUnder(site, 'events').map((f) => dirname(f)))].filter((d) => d !== 'events');
    const from = site.pick(folders);
    const to = `events/folder-${site.serial++}`;
    renameSync(join(site.content, from), join(site.content, to));
    return `${from} → ${to}`;
  },
  'change a directory object': (site) => {
    const rel = site.pick(filesUnder(site, 'directory'));
    const n = site.serial++;
    editLine(site, rel, /^ {2}(?:last_name|title|name): .*$/gm, (line) => `${line.slice(0, line.indexOf(':'))}: Neu${n}`);
    return rel;
  },
  'add a directory file': (site) => {
    const n = site.serial++;
    const rel = `directory/added/${n}.yaml`;
    write(site, rel, `- model: campus.Person\n  id: ${800_000 + n}\n  first_name: Neu\n  last_name: Person${n}\n`);
    return rel;
  },
  'delete a directory file': (site) => {
    const rel = site.pick(filesUnder(site, 'directory'));
    unlinkSync(join(site.content, rel));
    return rel;
  },
  'move a directory file': (site) => {
    const rel = site.pick(filesUnder(site, 'directory'));
    const to = `directory/moved/${site.serial++}-${rel.split('/').pop()}`;
    mkdirSync(dirname(join(site.content, to)), { recursive: true });
    renameSync(join(site.content, rel), join(site.content, to));
    return `${rel} → ${to}`;
  },
  'change a category events expand': (site) => {
    const n = site.serial++;
    editLine(site, 'categories.yaml', /^ {2}title: .*$/gm, () => `  title: Kategorie ${n}`);
    return 'categories.yaml';
  },
  "change a page's title": (site) => {
    const n = site.serial++;
    editLine(site, 'pages.yaml', /^ {2}title: .*$/gm, () => `  title: Seite ${n}`);
    return 'pages.yaml';
  },
  "change a page's parent": (site) => {
    let moved = '';
    editList(site, 'pages.yaml', (pages) => {
      const roots = pages.filter((p) => p.pid === 0);
      const page = site.pick(pages.filter((p) => p.pid !== 0 && !roots.some((r) => r.uid === p.pid)));
      // a root as the new parent: never a cycle
      page.pid = site.pick(roots).uid;
      moved = `page ${page.uid} under ${page.pid}`;
    });
    return moved;
  },
  'change a media record': (site) => {
    const n = site.serial++;
    editLine(site, 'media.yaml', /^ {2}(?:filename|original): .*$/gm, (line) => `${line.slice(0, line.indexOf(':'))}: geaendert-${n}.jpg`);
    return 'media.yaml';
  },
  'change a media file': (site) => {
    // the same size and type, other bytes: the copy in dist/ and its hash change
    const rel = site.pick(filesUnder(site, 'media').filter((f) => !f.endsWith('.yaml')));
    const bytes = readFileSync(join(site.content, rel));
    bytes[bytes.length - 1] ^= 0x21;
    writeFileSync(join(site.content, rel), bytes);
    return rel;
  },
  "change site.yaml's base_url": (site) => {
    const text = read(site, 'site.yaml');
    const url = site.pick(['https://example.org/aula', 'http://127.0.0.1:8000'].filter((u) => !text.includes(`base_url: ${u}\n`)));
    write(site, 'site.yaml', text.replace(/^base_url: .*$/m, `base_url: ${url}`));
    return `site.yaml (base_url ${url})`;
  },
  "change site.yaml's page size": (site) => {
    const text = read(site, 'site.yaml');
    const size = site.pick([7, 33].filter((n) => !text.includes(`page_size: ${n}\n`)));
    write(site, 'site.yaml', text.replace(/^page_size: .*$/m, `page_size: ${size}`));
    return `site.yaml (page size ${size})`;
  },
  "change site.yaml's max page size": (site) => {
    const text = read(site, 'site.yaml');
    const size = site.pick([50, 1000].filter((n) => !text.includes(`max_page_size: ${n}\n`)));
    write(site, 'site.yaml', text.replace(/^max_page_size: .*$/m, `max_page_size: ${size}`));
    return `site.yaml (max page size ${size})`;
  },
  "change site.yaml's title": (site) => {
    const text = read(site, 'site.yaml');
    const title = `Kalender ${site.serial++}`;
    write(site, 'site.yaml', /^title: /m.test(text) ? text.replace(/^title: .*$/m, `title: ${title}`) : `${text.trimEnd()}\ntitle: ${title}\n`);
    return `site.yaml (title ${title})`;
  },
  "change site.yaml's time zone": (site) => {
    const text = read(site, 'site.yaml');
    // naive times then mean other instants (and some ends come before their starts: both builds
    // must report the same problems); the next step puts the zone back
    const zone = site.pick(['UTC', 'America/New_York']);
    site.undo = { what: 'zone back in site.yaml', file: 'site.yaml', text };
    write(site, 'site.yaml', text.replace(/^timezone: .*$/m, `timezone: ${zone}`));
    return `site.yaml (${zone})`;
  },
  'break a file': (site) => {
    const rel = site.pick([...filesUnder(site, 'events'), ...filesUnder(site, 'directory')]);
    site.undo = { what: `fix ${rel}`, file: rel, text: read(site, rel) };
    write(site, rel, `${read(site, rel).replace(/^(?: {2})?id: .*$/m, (l) => `${l.slice(0, l.indexOf(':'))}: [unclosed`)}`);
    return rel;
  },
};

/** Damages every file of the cache (the event state, the ledger): flips bytes inside, cuts it short, or makes it another aula's. */
function damageCache(cache: string, how: 'flip' | 'truncate' | 'foreign'): void {
  for (const name of readdirSync(cache)) damageFile(join(cache, name), how);
}

function damageFile(path: string, how: 'flip' | 'truncate' | 'foreign'): void {
  const bytes = readFileSync(path);
  if (how === 'flip') {
    for (let i = 0; i < 20; i++) bytes[Math.floor(bytes.length * (0.2 + i * 0.04))] ^= 0x5a;
    writeFileSync(path, bytes);
  } else if (how === 'truncate') {
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  } else {
    const identity = cacheIdentity();
    writeFileSync(path, Buffer.from(bytes.toString('latin1').replace(identity, identity.replace(/"aula":"[^"]*"/, '"aula":"9.9.9"')), 'latin1'));
  }
}

interface Walk {
  events: number;
  directory: number;
  /** the edits made once each, in order, before `extra` more picked at random among them */
  names: string[];
  extra: number;
  /** the .gz/.br twins too (their reuse from the previous dist) */
  precompress: boolean;
  damages: Map<number, 'flip' | 'truncate' | 'foreign'>;
}

/** Edits a generated site step by step; after each, an incremental and a clean build must agree. */
async function walk(name: string, { events, directory, names, extra, precompress, damages }: Walk) {
  const content = join(root, name, 'content');
  await generateContent({ events, directory, seed: 5, outDir: content });
  const rnd = random(16);
  const site: Site = { content, rnd, pick: (list) => list[Math.floor(rnd() * list.length)], undo: null, serial: 1 };
  const out = join(root, name, 'dist');
  const cache = join(root, name, 'cache');
  let previous: Map<string, string> | null = null;
  let previousPublic: Record<string, string> = {};
  let incrementalBuilds = 0;
  let patches = 0;
  let previousOk = false;
  let edits = 0;
  const failed: string[] = [];

  for (let step = 0; step === 0 || edits < names.length + extra || site.undo; step++) {
    let did = 'no edit (first build)';
    let overPrior = false;
    if (step > 0) {
      if (site.undo) {
        write(site, site.undo.file, site.undo.text);
        did = site.undo.what;
        overPrior = /^(?:events\/|directory\/|categories\.yaml$)/.test(site.undo.file);
        site.undo = null;
      } else {
        // every kind of edit at least once, the rest at random
        const name = edits < names.length ? names[edits] : site.pick(names);
        edits++;
        did = `${name}: ${EDITS[name](site)}`;
        overPrior = PRIOR_EDITS.has(name);
      }
    }
    const damage = damages.get(step);
    if (damage && existsSync(cache)) damageCache(cache, damage);

    const before = existsSync(out) ? new Map(listFiles(out).map((rel) => [rel, statSync(join(out, rel)).ino])) : new Map<string, number>();
    const incremental = await build({ content, out, cache, eventPartRows: 32, precompress });
    const cleanOut = join(root, name, `clean-${step}`);
    const clean = await build({ content, out: cleanOut, eventPartRows: 32, precompress });
    expect(problemsOf(incremental), `step ${step}, ${did}`).toEqual(problemsOf(clean));
    expect(incremental.ok, `step ${step}, ${did}`).toBe(clean.ok);
    // after a good build, an edit to event files alone patches its dist (patch-build.ts); a
    // damaged cache never does
    const patched = incremental.ok && incremental.patch?.taken === true;
    if (damage) expect(patched, `step ${step}: patched a damaged cache`).toBe(false);
    if (damage && incremental.ok) expect(incremental.patch?.reason, `step ${step}`).toMatch(/^no usable (?:event state|ledger)$/);
    else if (incremental.ok && overPrior && previousOk) expect(incremental.patch, `step ${step}, ${did}`).toMatchObject({ taken: true });
    if (patched) patches++;
    previousOk = incremental.ok;
    if (!incremental.ok) {
      failed.push(did);
      // a failed build leaves the last good dist exactly as it was
      if (previous) expect(digests(out), `step ${step}, ${did}`).toEqual(previous);
      continue;
    }
    incrementalBuilds++;

    const got = digests(out);
    const want = digests(cleanOut);
    removeDir(cleanOut);
    got.delete('changes.json');
    want.delete('changes.json');
    expect([...got.keys()].sort(), `step ${step}, ${did}`).toEqual([...want.keys()].sort());
    const differing = [...got].filter(([rel, hash]) => want.get(rel) !== hash).map(([rel]) => rel);
    expect(differing, `step ${step}, ${did}: files that differ from a clean build`).toEqual([]);

    // changes.json: exactly the served files whose bytes changed since the last good build
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const changes = JSON.parse(readFileSync(join(out, 'changes.json'), 'utf8'));
    const served = Object.keys(manifest.public_files);
    for (const rel of served) expect(manifest.public_files[rel], rel).toBe(got.get(rel));
    if (previous) {
      expect(changes.changed, `step ${step}, ${did}`).toEqual(served.filter((rel) => previous!.has(rel) && previous!.get(rel) !== got.get(rel) && rel in previousPublic).sort());
      expect(changes.added, `step ${step}, ${did}`).toEqual(served.filter((rel) => !(rel in previousPublic)).sort());
      expect(changes.removed, `step ${step}, ${did}`).toEqual(Object.keys(previousPublic).filter((rel) => !(rel in manifest.public_files)).sort());
      // and every file whose bytes did not change is the very same file (same inode, same mtime)
      for (const [rel, hash] of got) {
        if (previous.get(rel) === hash) expect(statSync(join(out, rel)).ino, `step ${step}: ${rel} was rewritten`).toBe(before.get(rel));
      }
    } else {
      expect(changes.added).toEqual(served);
    }
    previous = digests(out);
    previousPublic = manifest.public_files;
  }
  expect(incrementalBuilds).toBeGreaterThan(names.length);
  expect(patches, 'builds that patched the previous dist').toBeGreaterThanOrEqual(3);
  // the failing steps are the ones meant to fail, and each kind of edit was made
  if (names.includes('break a file')) expect(failed.map((d) => d.split(':')[0])).toEqual(expect.arrayContaining(['break a file']));
  expect(edits).toBeGreaterThanOrEqual(names.length);
  // the walk did leave the folders it claims to have touched
  expect(readdirSync(join(content, 'events')).length).toBeGreaterThan(0);
}

// AULA_INCREMENTAL_EDITS=200 walks on at random after every kind of edit was made once (slow tier)
const EXTRA = Number(process.env.AULA_INCREMENTAL_EDITS ?? 0);

describe('incremental builds', () => {
  it('after every kind of edit, the incremental dist is byte-identical to a clean build', async () => {
    await walk('every-edit', {
      events: 150, directory: 250, names: Object.keys(EDITS), extra: EXTRA, precompress: false,
      damages: new Map([[4, 'flip'], [8, 'truncate'], [12, 'foreign']]),
    });
  });

  it('with the .gz/.br twins, reused from the previous dist, as well', async () => {
    await walk('twins', {
      events: 60, directory: 80, extra: Math.floor(EXTRA / 10), precompress: true, damages: new Map(),
      names: ['change an event', 'add an event', 'delete an event file', "change site.yaml's base_url", 'change a directory object'],
    });
  });
});
