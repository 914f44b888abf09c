// The content walk never leaves the content folder and never hangs: symbolic links out, loops,
// special files; file names that are not UTF-8 or hold terminal escapes. Real folders, real links,
// `aula build`/`aula check` as real processes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProblem, loadContent } from '../../src/content/index.ts';
import { MEDIA_FILES_INDEX, type MediaFile } from '../../src/store/format/public-files.ts';
import { FIXTURE_FILES } from '../fixture-content.ts';
import { aula as run } from '../aula-cli.ts';
import { cpuMs, removeDir, tempDir, writeContent } from '../helpers.ts';

const event = (id: number, title = `Event ${id}`) =>
  `id: ${id}\ntitle: ${title}\nstart: 2025-03-01T10:00\nend: 2025-03-01T11:00\nlast_modified: 2025-01-01\n`;

let root: string;
let outside: string;
beforeAll(() => {
  root = tempDir('aula-links-');
  outside = writeContent(join(root, 'outside'), {
    'hostname.yaml': event(900, 'SECRET-OUTSIDE-BYTES'),
    'folder/e.yaml': event(901, 'SECRET-OUTSIDE-FOLDER'),
  });
});
afterAll(() => removeDir(root));

const aula = (args: string[], env: NodeJS.ProcessEnv = process.env) => run(args, { cwd: root, env });

function content(name: string, extra: Record<string, string> = {}): string {
  return writeContent(join(root, name), { ...FIXTURE_FILES, ...extra });
}

describe('symbolic links', () => {
  it('a link to a file or folder outside is an error naming the link, never its target or bytes', () => {
    const dir = content('out-links');
    symlinkSync(join(outside, 'hostname.yaml'), join(dir, 'events', 'leak.yaml'));
    symlinkSync(join(outside, 'folder'), join(dir, 'directory', 'elsewhere'));
    const r = aula(['build', '--content', dir, '--out', join(root, 'dist-out-links')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('events/leak.yaml:1:1 is a symbolic link that leads outside the content folder');
    expect(r.err).toContain('directory/elsewhere:1:1 is a symbolic link that leads outside the content folder');
    expect(r.err).not.toContain('SECRET');
    expect(r.err).not.toContain(outside);
  });

  it('site.yaml -> /proc/self/environ: refused, and no environment value appears in the output', () => {
    const dir = content('environ');
    const siteLink = join(dir, 'site.yaml');
    removeDir(siteLink);
    symlinkSync('/proc/self/environ', siteLink);
    const env = { ...process.env, AULA_CANARY: 'canary-4f9c1e-do-not-print' };
    const r = aula(['check', '--content', dir], env);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^site\.yaml:1:1 is a symbolic link that leads outside the content folder/m);
    expect(r.err).not.toContain('canary-4f9c1e');
    for (const value of Object.values(env)) if (value && value.length >= 12 && !root.includes(value)) expect(r.err).not.toContain(value);
  });

  it('loops (file links, a folder linking to its ancestor) end promptly as errors', async () => {
    const dir = content('loops');
    symlinkSync('b.yaml', join(dir, 'events', 'a.yaml'));
    symlinkSync('a.yaml', join(dir, 'events', 'b.yaml'));
    mkdirSync(join(dir, 'events', 'deep'));
    symlinkSync('..', join(dir, 'events', 'deep', 'up'));
    symlinkSync(join(dir, 'events'), join(dir, 'directory', 'again'));
    const rssBefore = process.memoryUsage().rss;
    const { result: { model, problems }, ms } = await cpuMs(() => loadContent(dir));
    expect(ms).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    expect(model).toBeNull();
    const lines = problems.map(formatProblem);
    expect(lines).toContain('events/a.yaml:1:1 is a symbolic link that loops (too many levels of links)');
    expect(lines).toContain('events/b.yaml:1:1 is a symbolic link that loops (too many levels of links)');
    expect(lines).toContain('events/deep/up:1:1 is a symbolic link that loops back to events');
    expect(lines).toContain('directory/again:1:1 is a symbolic link to events, which is read already; a folder may be part of the content once');
  });

  it('links that stay inside the folder are followed', async () => {
    const dir = content('inside', { 'shared/talk.yaml': event(77, 'Shared talk'), 'drafts/more/e.yaml': event(78, 'Linked folder') });
    symlinkSync('../shared/talk.yaml', join(dir, 'events', 'talk.yaml'));
    symlinkSync(join(dir, 'drafts', 'more'), join(dir, 'events', 'linked-folder'));
    const { model, problems } = await loadContent(dir);
    expect(problems.map(formatProblem)).toEqual([]);
    expect(model!.events.map((e) => e.title)).toEqual(expect.arrayContaining(['Shared talk', 'Linked folder']));
  });

  it('a media file that is a link is copied under the name the record wrote, typed after it', async () => {
    const dir = content('media-link', { 'blobs/8f3a0c': 'PNGBYTES' });
    rmSync(join(dir, 'media', 'bild.png'));
    symlinkSync('../blobs/8f3a0c', join(dir, 'media', 'bild.png'));
    const out = join(root, 'media-link-dist');
    const r = aula(['build', '--no-cache', '--content', dir, '--out', out]);
    expect(r.code, r.err).toBe(0);
    const files = JSON.parse(readFileSync(join(out, MEDIA_FILES_INDEX), 'utf8')) as MediaFile[];
    expect(files).toEqual([{ id: 12, file: 'cms/media/12/bild.png', mimetype: 'image/png' }]);
    expect(readFileSync(join(out, 'cms/media/12/bild.png'), 'utf8')).toBe('PNGBYTES');
  });

  it('a FIFO named like a content file is an error, not a read that never returns', async () => {
    const dir = content('fifo');
    const made = spawnSync('mkfifo', [join(dir, 'events', 'pipe.yaml')]);
    if (made.status !== 0) return; // no mkfifo on this system
    const { problems } = await loadContent(dir);
    expect(problems.map(formatProblem)).toContain('events/pipe.yaml:1:1 is not a regular file (a device, FIFO or socket); content files must be regular files');
  });
});

describe('file names', () => {
  it('bytes \\xff\\xfe in a name do not fail the build: the file is read, and shown escaped', () => {
    const dir = content('latin1');
    writeFileSync(Buffer.from(`${join(dir, 'events')}/caf\xe9-\xff\xfe.yaml`, 'latin1'), event(501, 'Named in Latin-1'));
    mkdirSync(Buffer.from(`${join(dir, 'events')}/\xfe-folder`, 'latin1'));
    writeFileSync(Buffer.from(`${join(dir, 'events')}/\xfe-folder/inner.yaml`, 'latin1'), event(504, 'In a Latin-1 folder'));
    const ok = aula(['build', '--content', dir, '--out', join(root, 'dist-latin1')]);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/6 events/);
    writeFileSync(Buffer.from(`${join(dir, 'events')}/bad-\xff.yaml`, 'latin1'), 'id: 502\n');
    const bad = aula(['check', '--content', dir]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^events\/bad-\\xff\.yaml:1:1 title: required key is missing$/m);
  });

  it('names with ESC sequences and newlines are printed escaped, one line per problem', () => {
    const dir = content('escapes');
    writeFileSync(join(dir, 'events', 'x\x1b[2J\x1b[31mred\nFAKE.yaml'), 'id: 503\n');
    const r = aula(['check', '--content', dir]);
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/\x1b/);
    expect(r.err).toContain('events/x\\u001b[2J\\u001b[31mred\\nFAKE.yaml:1:1 title: required key is missing');
    expect(r.err.split('\n').filter((l) => l.startsWith('FAKE'))).toEqual([]);
  });
});
