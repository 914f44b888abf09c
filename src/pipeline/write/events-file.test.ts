import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { writeEventParts } from './events-file.ts';

// the thread module on a real worker thread, as an installed aula runs it (start-thread.ts)
process.env.AULA_THREADS = 'worker';

const root = tempDir('aula-events-file-');
afterAll(() => removeDir(root));

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('writeEventParts', () => {
  it('copies ranges of the previous parts (across a part boundary, through a chunk smaller than they are) with bytes between, and hashes each part', async () => {
    const old = Buffer.alloc(20 << 20);
    for (let i = 0; i < old.length; i += 997) old[i] = i % 251;
    // the previous rows as three parts of uneven sizes
    const cuts = [0, 7 << 20, 15 << 20, old.length];
    const paths = [0, 1, 2].map((i) => join(root, `old-${i}.jsonl`));
    paths.forEach((path, i) => writeFileSync(path, old.subarray(cuts[i], cuts[i + 1])));
    const previous = { paths, sizes: [0, 1, 2].map((i) => cuts[i + 1] - cuts[i]) };
    const first = [{ begin: 5, end: 9 << 20 }, { bytes: Buffer.from('\nnew row\n') }, { begin: 12 << 20, end: old.length }];
    const second = [{ begin: (15 << 20) - 3, end: (15 << 20) + 3 }];
    const want = [
      Buffer.concat([old.subarray(5, 9 << 20), Buffer.from('\nnew row\n'), old.subarray(12 << 20)]),
      old.subarray((15 << 20) - 3, (15 << 20) + 3),
    ];
    const to = [join(root, 'new-0.jsonl'), join(root, 'new-1.jsonl')];
    const made = await writeEventParts(previous, [{ to: to[0], segments: first }, { to: to[1], segments: second }]);
    to.forEach((path, i) => expect(readFileSync(path).equals(want[i]), path).toBe(true));
    expect(made).toEqual(want.map((bytes) => ({ sha: sha(bytes), bytes: bytes.length })));
  });

  it('fails, writing over nothing, when a new part exists or the previous parts are too short', async () => {
    const from = join(root, 'short.jsonl');
    writeFileSync(from, 'abc');
    const previous = { paths: [from], sizes: [3] };
    await expect(writeEventParts(previous, [{ to: from, segments: [{ bytes: Buffer.from('x') }] }])).rejects.toThrow(/EEXIST/);
    expect(readFileSync(from, 'utf8')).toBe('abc');
    await expect(writeEventParts(previous, [{ to: join(root, 'cut.jsonl'), segments: [{ begin: 0, end: 10 }] }])).rejects.toThrow(/shorter/);
    await expect(writeEventParts({ paths: [from], sizes: [10] }, [{ to: join(root, 'cut2.jsonl'), segments: [{ begin: 0, end: 10 }] }])).rejects.toThrow(/shorter/);
  });
});
