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

/** Where the workflow runs: the site's place in its git repository, and the Node.js to run on. */
export interface WorkflowPlace {
  /** the site folder relative to the repository's top, with `/`; '' when the site is the top */
  siteDir: string;
  /** the major version of Node.js to install */
  nodeMajor: number;
}

/** A YAML scalar: plain where YAML reads it as that string, else double-quoted (JSON's quoting is YAML's). */
const yamlString = (s: string) => (/^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(s) ? s : JSON.stringify(s));

/**
 * The CI workflow: check and build on every push and pull request, dist/ kept as an artifact.
 * `npm ci` installs what package-lock.json lists, so the lockfile is committed (setup-node's npm
 * cache needs it too); `npx --no` runs the aula that `npm ci` installed and never downloads a
 * package of that name from the registry. A site below the repository's top runs its steps
 * there, and GitHub reads the workflow only from the top's .github/workflows/ (init says so).
 */
export function workflow({ siteDir, nodeMajor }: WorkflowPlace): string {
  const at = (rel: string) => yamlString(siteDir === '' ? rel : `${siteDir}/${rel}`);
  const lines = [
    '# Checks content/ and builds dist/ on every push and pull request; dist/ is kept as an artifact.',
    '# `npm ci` installs exactly what package-lock.json lists: commit it (and the aula tarball,',
    '# when package.json takes aula from a file in the repository).',
    'name: aula',
    'on:',
    '  push:',
    '  pull_request:',
    'permissions:',
    '  contents: read',
    'jobs:',
    '  build:',
    '    runs-on: ubuntu-latest',
    ...(siteDir === '' ? [] : ['    defaults:', '      run:', `        working-directory: ${yamlString(siteDir)}`]),
    '    steps:',
    '      - uses: actions/checkout@v5',
    '      - uses: actions/setup-node@v5',
    '        with:',
    `          node-version: ${nodeMajor}`,
    '          cache: npm',
    ...(siteDir === '' ? [] : [`          cache-dependency-path: ${at('package-lock.json')}`]),
    '      - run: npm ci',
    '      # --no: the aula npm ci installed, never a package of that name downloaded from the registry',
    '      - run: npx --no aula check',
    '      - run: npx --no aula build',
    '      - uses: actions/upload-artifact@v6',
    '        with:',
    '          name: dist',
    `          path: ${at('dist/')}`,
    '          # dist/.aula-files lists what aula made: the next build into that folder keeps the rest',
    '          include-hidden-files: true',
  ];
  return `${lines.join('\n')}\n`;
}

/** Lines \`aula init\` makes sure .gitignore has: build output is not source. */
export const IGNORED = ['dist/', '.aula-dev/', 'node_modules/'];
