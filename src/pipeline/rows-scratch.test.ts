import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { RowsScratch } from './rows-scratch.ts';

const root = tempDir('aula-rows-scratch-');
afterAll(() => removeDir(root));

describe('RowsScratch', () => {
  it('is removed when let go of unless kept, with any a killed build left', () => {
    const dir = join(root, 'cache');
    const rowsPath = join(dir, 'rows-y.bin');
    mkdirSync(dir);
    // one of a process no longer running, one of a running process (this one's parent), and a file of the user's
    const dead = `rows-y.bin.999999999-${'a'.repeat(12)}.tmp`;
    const alive = `rows-y.bin.${process.ppid}-${'b'.repeat(12)}.tmp`;
    for (const name of [dead, alive, 'rows-y.bin.notes.tmp']) writeFileSync(join(dir, name), 'x');
    const file = RowsScratch.create(rowsPath)!;
    const made = readdirSync(dir).filter((name) => ![alive, 'rows-y.bin.notes.tmp'].includes(name));
    expect(made).toEqual([expect.stringMatching(new RegExp(`^rows-y\\.bin\\.${process.pid}-[0-9a-f]{12}\\.tmp$`))]);
    file.close();
    expect(readdirSync(dir).sort()).toEqual([alive, 'rows-y.bin.notes.tmp'].sort());
    // without a cache: a scratch file, nameless from the start
    const scratch = RowsScratch.create(null)!;
    expect(scratch.inProgress()).toBeNull();
    scratch.close();
  });
});
