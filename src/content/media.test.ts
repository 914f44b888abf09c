import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from './load.ts';
import { formatProblem } from './problems.ts';
import { contentFolder, lines, load, loadModel } from './test-folder.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d', 'hex');

describe('media', () => {
  it('fills size and mimetype from the file, and reads media.yaml, media/** and JSON', async () => {
    const model = await loadModel({
      'media.yaml': lines('- id: 1', '  filename: poster.png', '  file: media/files/poster.png', '  original: https://cms.example.org/poster.png'),
      'media/files/poster.png': PNG,
      'media/docs/list.yml': lines('- id: 2', '  filename: Programm.PDF', '  file: media/docs/Programm.PDF', '  size: 4', '  mimetype: application/pdf'),
      'media/docs/Programm.PDF': '%PDF',
      'media/more.json': '{"id": 3, "filename": "talk.mp3", "mimetype": "audio/mpeg", "size": 123456}',
      'media/files/data.bin': 'xx',
      'media/odd.yaml': lines('id: 4', 'filename: data.bin', 'file: media/files/data.bin'),
    });
    expect([...model.media.values()].sort((a, b) => a.id - b.id)).toEqual([
      { id: 1, filename: 'poster.png', original: 'https://cms.example.org/poster.png', mimetype: 'image/png', size: PNG.length, source: expect.stringMatching(/\/media\/files\/poster\.png$/), sourceName: 'poster.png' },
      { id: 2, filename: 'Programm.PDF', original: null, mimetype: 'application/pdf', size: 4, source: expect.stringMatching(/Programm\.PDF$/), sourceName: 'Programm.PDF' },
      { id: 3, filename: 'talk.mp3', original: null, mimetype: 'audio/mpeg', size: 123456 },
      { id: 4, filename: 'data.bin', original: null, mimetype: 'application/octet-stream', size: 2, source: expect.stringMatching(/data\.bin$/), sourceName: 'data.bin' },
    ]);
  });

  it('reports a missing file, and written size or mimetype that disagree with the file', async () => {
    const { lines: out } = await load({
      'media.yaml': lines(
        '- {id: 1, filename: a, file: media/nope.png}',
        '- {id: 2, filename: b, file: media/b.png, size: 3, mimetype: image/jpeg}',
        '- {id: 3, filename: c, file: media/b.png, size: 12, mimetype: image/png}',
      ),
      'media/b.png': PNG,
    });
    expect(out).toEqual([
      'media.yaml:1:30 file: no such file in the content folder: "media/nope.png"',
      'media.yaml:2:49 size: size 3 disagrees with media/b.png, which has 12 bytes',
      'media.yaml:2:62 mimetype: mimetype "image/jpeg" disagrees with media/b.png, which is image/png by its extension',
    ]);
  });

  it('refuses files outside the content folder, through .. or a symbolic link', async () => {
    const outside = await contentFolder({ 'secret.txt': 'x' });
    const dir = await contentFolder({
      'media.yaml': lines(
        '- {id: 1, filename: a, file: ../secret.txt}',
        '- {id: 2, filename: b, file: media/link.txt}',
        '- {id: 3, filename: c, file: /etc/hostname}',
        '- {id: 4, filename: d, file: media}',
        "- {id: 5, filename: e, file: ''}",
        '- {id: 6, filename: f, file: .}',
      ),
      'media/keep.txt': '',
    });
    await symlink(join(outside, 'secret.txt'), join(dir, 'media', 'link.txt'));
    const { problems } = await loadContent(dir);
    expect(problems.map(formatProblem)).toEqual([
      'media.yaml:1:30 file: expected a path inside the content folder, got "../secret.txt"',
      'media.yaml:2:30 file: "media/link.txt" leads outside the content folder',
      'media.yaml:3:30 file: expected a path inside the content folder, got "/etc/hostname"',
      'media.yaml:4:30 file: "media" is not a regular file',
      'media.yaml:5:30 file: expected the path of a file inside the content folder, got ""',
      'media.yaml:6:30 file: expected the path of a file inside the content folder, got "."',
    ]);
  });

  it('requires mimetype and size without a file, and a non-negative size', async () => {
    const { lines: out } = await load({ 'media.yaml': lines('- {id: 1, filename: a}', '- {id: 2, filename: b, mimetype: text/plain, size: -1}', '- {id: 3, size: "1"}') });
    expect(out).toEqual([
      'media.yaml:1:3 mimetype: required key is missing',
      'media.yaml:1:3 size: required key is missing',
      'media.yaml:2:52 size: expected a byte count (0 or more), got -1',
      'media.yaml:3:3 filename: required key is missing',
      'media.yaml:3:3 mimetype: required key is missing',
      'media.yaml:3:17 size: expected an integer, got "1"',
    ]);
  });

  it('reports a negative size once, without also comparing it with the file', async () => {
    const { lines: out } = await load({ 'media.yaml': lines('- {id: 1, filename: a, file: media/a.txt, size: -1}'), 'media/a.txt': 'abc' });
    expect(out).toEqual(['media.yaml:1:49 size: expected a byte count (0 or more), got -1']);
  });

  it('reports duplicate ids across media files, and unknown keys', async () => {
    const { lines: out } = await load({
      'media.yaml': lines('id: 1', 'filename: a', 'mimetype: text/plain', 'size: 1', 'url: x'),
      'media/more.yaml': lines('id: 1', 'filename: b', 'mimetype: text/plain', 'size: 1'),
    });
    expect(out).toEqual([
      'media.yaml:1:5 id: duplicate media id 1 (also defined in media/more.yaml)',
      'media.yaml:5:1 url: unknown key',
      'media/more.yaml:1:5 id: duplicate media id 1 (also defined in media.yaml)',
    ]);
  });
});
