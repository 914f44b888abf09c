// The files `aula init` writes: a small content folder that builds as it is and shows each kind
// of source file once, the npm scripts, and a CI workflow.

/**
 * Where the installed package holds the JSON Schemas of the content files (scripts/compile.mjs
 * writes them there; the same schemas a build writes to dist/schemas/), relative to the folder
 * whose node_modules holds aula. The starter files name them in a `yaml-language-server` comment,
 * so an editor validates and completes keys from the first edit, before anything was built: a
 * path into dist/ would name nothing until the first build, and aula publishes no schema URL.
 */
export const SCHEMAS_IN_PACKAGE = 'node_modules/aula/lib/schemas';

/** A starter file: its text, and the schema (a name in SCHEMAS_IN_PACKAGE) that describes it. */
export interface StarterFile {
  schema: string;
  text: string;
}

/**
 * The file with a first line naming its schema at `path` (relative to the file): YAML as a
 * comment at the top, a Markdown event inside its front matter (which is YAML).
 */
export function withSchemaHint(file: StarterFile, path: string): string {
  const hint = `# yaml-language-server: $schema=${path}\n`;
  return file.text.startsWith('---\n') ? `---\n${hint}${file.text.slice(4)}` : `${hint}${file.text}`;
}

/** Relative to the content folder. */
export const STARTER_CONTENT: ReadonlyMap<string, StarterFile> = new Map([
  [
    'site.yaml',
    {
      schema: 'site.schema.json',
      text: `# Where the API will be served; links and media URLs in dist/ are built on it.
base_url: http://127.0.0.1:8000
timezone: Europe/Vienna
page_size: 20
max_page_size: 1000
`,
    },
  ],
  [
    'categories.yaml',
    {
      schema: 'categories.schema.json',
      text: `- id: 1
  title: Lecture
  slug: lecture
- id: 2
  title: Workshop
  slug: workshop
`,
    },
  ],
  [
    'events/welcome-lecture.md',
    {
      schema: 'event-front-matter.schema.json',
      text: `---
id: 1
title: Welcome lecture
start: 2030-01-15T18:00
end: 2030-01-15T19:30
categories:
  - 1
location: Main hall
last_modified: 2029-12-01T09:00:00Z
---

The first event of the season. The body of a \`.md\` event is **Markdown**.
`,
    },
  ],
  [
    'events/workshop.yaml',
    {
      schema: 'event.schema.json',
      text: `# A .yaml event: body is HTML.
id: 2
title: Hands-on workshop
start: 2030-02-03T09:00:00+01:00
end: 2030-02-03T12:00:00+01:00
categories:
  - 2
organizer: Events office
register: true
last_modified: 2029-12-01T09:00:00Z
body: <p>Bring a laptop.</p>
`,
    },
  ],
  [
    'directory/people.yaml',
    {
      schema: 'directory.schema.json',
      text: `- model: campus.Person
  id: 1
  title: Dr.
  first_name: Ada
  last_name: Lovelace
- model: campus.Person
  id: 2
  first_name: Alan
  last_name: Turing
  title_after: PhD
`,
    },
  ],
  [
    'directory/places.yaml',
    {
      schema: 'directory.schema.json',
      text: `- model: campus.Room
  id: 1
  name: Main hall
  code: HS 1
- model: structure.Organization
  id: 1
  name: Events office
`,
    },
  ],
]);

/** npm scripts added to package.json (an existing script of the same name is kept). */
export const STARTER_SCRIPTS: Readonly<Record<string, string>> = {
  build: 'aula build',
  check: 'aula check',
  serve: 'aula serve',
  dev: 'aula dev',
};

export const WORKFLOW_FILE = '.github/workflows/aula.yml';

export const WORKFLOW = `# Validates content/ and builds the API on every push; the built dist/ is kept as an artifact.
name: aula
on:
  push:
  pull_request:
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: npx aula check
      - run: npx aula build
      - uses: actions/upload-artifact@v4
        with:
          name: dist
          path: dist/
`;

/** Lines \`aula init\` makes sure .gitignore has: build output is not source. */
export const IGNORED = ['dist/', '.aula-dev/', 'node_modules/'];
