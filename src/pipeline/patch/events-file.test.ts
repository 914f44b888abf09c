import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { writeEventsFile } from './events-file.ts';

const root = tempDir('aula-events-file-');
afterAll(() => removeDir(root));

describe('writeEventsFile', () => {
  it('copies ranges of the previous file (through a chunk smaller than they are) with bytes between, and hashes what it wrote', async () => {
    const old = Buffer.alloc(20 << 20);
    for (let i = 0; i < old.length; i += 997) old[i] = i % 251;
    const from = join(root, 'old.jsonl');
    writeFileSync(from, old);
    const segments = [{ begin: 5, end: 9 << 20 }, { bytes: Buffer.from('\nnew row\n') }, { begin: 12 << 20, end: old.length }];
    const want = Buffer.concat([old.subarray(5, 9 << 20), Buffer.from('\nnew row\n'), old.subarray(12 << 20)]);
    const to = join(root, 'new.jsonl');
    const made = await writeEventsFile(from, to, segments);
    expect(readFileSync(to).equals(want)).toBe(true);
    expect(made).toEqual({ sha: createHash('sha256').update(want).digest('hex'), bytes: want.length });
  });

  it('fails, writing over nothing, when the new file exists or the previous one is too short', async () => {
    const from = join(root, 'short.jsonl');
    writeFileSync(from, 'abc');
    await expect(writeEventsFile(from, from, [{ bytes: Buffer.from('x') }])).rejects.toThrow(/EEXIST/);
    expect(readFileSync(from, 'utf8')).toBe('abc');
    await expect(writeEventsFile(from, join(root, 'cut.jsonl'), [{ begin: 0, end: 10 }])).rejects.toThrow(/shorter/);
  });
});
