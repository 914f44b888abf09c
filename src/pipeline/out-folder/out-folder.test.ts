import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aulaManifest, checkOutFolder, realpathOfMaybeMissing } from './out-folder.ts';

const root = mkdtempSync(join(tmpdir(), 'aula-outfolder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const content = join(root, 'content');
mkdirSync(content);

const manifest = { format: 1, version: '0.1.0', built_at: 'x', base_url: 'http://a', site: {}, counts: {}, event_list: {} };

describe('aulaManifest', () => {
  it('needs every field aula writes, of the right type', () => {
    const dir = join(root, 'm');
    mkdirSync(dir);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(aulaManifest(dir)).not.toBeNull();
    for (const key of Object.keys(manifest)) {
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, [key]: undefined }));
      expect(aulaManifest(dir), key).toBeNull();
    }
    writeFileSync(join(dir, 'manifest.json'), '{"name":"app","format":1}');
    expect(aulaManifest(dir)).toBeNull();
    writeFileSync(join(dir, 'manifest.json'), 'not json');
    expect(aulaManifest(dir)).toBeNull();
  });

  it('recognises the manifest of a large site (a hash per page: well over 1 MiB)', () => {
    const dir = join(root, 'large');
    mkdirSync(dir);
    const public_files = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`v1/cms/event/offset/${i * 20}.json`, 'f'.repeat(64)]));
    const text = JSON.stringify({ ...manifest, public_files });
    expect(text.length).toBeGreaterThan(1_048_576);
    writeFileSync(join(dir, 'manifest.json'), text);
    expect(aulaManifest(dir)).not.toBeNull();
  });
});

describe('checkOutFolder', () => {
  it('accepts absent and empty folders', () => {
    expect(() => checkOutFolder(join(root, 'absent', 'dist'), content)).not.toThrow();
    mkdirSync(join(root, 'empty'));
    expect(() => checkOutFolder(join(root, 'empty'), content)).not.toThrow();
  });

  it('refuses the content folder, folders inside it or around it, also through links', () => {
    expect(() => checkOutFolder(content, content)).toThrow(/is the content folder/);
    expect(() => checkOutFolder(join(content, 'x', 'y'), content)).toThrow(/lies inside the content folder/);
    expect(() => checkOutFolder(root, content)).toThrow(/contains the content folder/);
    symlinkSync(content, join(root, 'alias'));
    expect(() => checkOutFolder(join(root, 'alias', 'dist'), content)).toThrow(/lies inside the content folder/);
    expect(() => checkOutFolder(join(root, 'alias'), content)).toThrow(/is the content folder/);
  });

  it('refuses files, links and folders with foreign files', () => {
    writeFileSync(join(root, 'file'), '');
    expect(() => checkOutFolder(join(root, 'file'), content)).toThrow(/is not a folder/);
    mkdirSync(join(root, 'other'));
    writeFileSync(join(root, 'other', 'keep.txt'), '');
    expect(() => checkOutFolder(join(root, 'other'), content)).toThrow(/not a dist written by aula/);
    symlinkSync(join(root, 'empty'), join(root, 'link-out'));
    expect(() => checkOutFolder(join(root, 'link-out'), content)).toThrow(/symbolic link/);
  });

  it('realpathOfMaybeMissing resolves the part that exists', () => {
    expect(realpathOfMaybeMissing(join(root, 'alias', 'a', 'b'))).toBe(join(realpathOfMaybeMissing(content), 'a', 'b'));
    // through a file: nothing below it can exist (a --cache there costs the build only its speed)
    writeFileSync(join(root, 'a-file'), '');
    expect(realpathOfMaybeMissing(join(root, 'alias', '..', 'a-file', 'x', 'y'))).toBe(join(realpathOfMaybeMissing(root), 'a-file', 'x', 'y'));
  });
});
