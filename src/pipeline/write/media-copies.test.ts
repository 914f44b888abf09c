import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import type { Media } from '../../model/types.ts';
import { copyMediaFiles, mediaFilesOf } from './media-copies.ts';
import { describeFailure } from '../../util/failure.ts';

const root = tempDir('aula-media-copies-');
afterAll(() => removeDir(root));
let n = 0;

/** A content folder with media/a.pdf checked as the loader checks it, a secret beside it outside, and a staging folder. */
function setUp() {
  const dir = join(root, `t${n++}`);
  const content = join(dir, 'content');
  mkdirSync(join(content, 'media'), { recursive: true });
  writeFileSync(join(content, 'media', 'a.pdf'), 'checked bytes');
  writeFileSync(join(dir, 'secret.txt'), 'bytes from outside the content folder');
  const staging = join(dir, 'staging');
  mkdirSync(staging);
  const source = realpathSync(join(content, 'media', 'a.pdf'));
  const media = new Map<number, Media>([[7, { id: 7, filename: 'a.pdf', original: null, mimetype: 'application/pdf', size: 13, source, sourceName: 'a.pdf' }]]);
  const copy = () => copyMediaFiles(media, staging, new Map());
  return { dir, content, staging, media, copy, copied: () => join(staging, mediaFilesOf(media)[0].file) };
}

describe('copyMediaFiles: only the file the content check saw is copied', () => {
  it('copies the checked file', () => {
    const t = setUp();
    t.copy();
    expect(readFileSync(t.copied(), 'utf8')).toBe('checked bytes');
  });

  it('a file replaced by a link out of the content folder after the check is refused, its target never read', () => {
    const t = setUp();
    rmSync(join(t.content, 'media', 'a.pdf'));
    symlinkSync(join(t.dir, 'secret.txt'), join(t.content, 'media', 'a.pdf'));
    expect(t.copy).toThrow(/^media file a\.pdf \(id 7\) cannot be read \(ELOOP\) since the content was checked; build again$/);
    expect(existsSync(t.copied())).toBe(false);
  });

  it('a folder on its path replaced by a link is refused', () => {
    const t = setUp();
    mkdirSync(join(t.dir, 'outside'));
    writeFileSync(join(t.dir, 'outside', 'a.pdf'), 'outside bytes');
    renameSync(join(t.content, 'media'), join(t.content, 'media-old'));
    symlinkSync(join(t.dir, 'outside'), join(t.content, 'media'));
    expect(t.copy).toThrow(/was replaced since the content was checked/);
    expect(existsSync(t.copied())).toBe(false);
  });

  it("says a file changed since the check as the user's own line, not as aula's unexpected error", () => {
    const t = setUp();
    writeFileSync(join(t.content, 'media', 'a.pdf'), 'checked bytes, and more written since');
    let thrown: unknown;
    try {
      t.copy();
    } catch (e) {
      thrown = e;
    }
    expect(describeFailure(thrown)).toBe('media file a.pdf (id 7) changed size (13 → 37 bytes) since the content was checked; build again');
  });

  it('a file of another size than checked is refused', () => {
    const t = setUp();
    writeFileSync(join(t.content, 'media', 'a.pdf'), 'checked bytes, and more written since');
    expect(t.copy).toThrow(/changed size \(13 → 37 bytes\)/);
  });
});
