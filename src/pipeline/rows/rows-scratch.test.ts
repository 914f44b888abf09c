import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { RowsScratch } from './rows-scratch.ts';

const root = tempDir('aula-rows-scratch-');
afterAll(() => removeDir(root));

describe('RowsScratch', () => {
  it('is made beside the rows file, named after this process, and removed when let go of unless kept', () => {
    const dir = join(root, 'cache');
    const rowsPath = join(dir, 'rows-y.bin');
    const file = RowsScratch.create(rowsPath)!;
    expect(readdirSync(dir)).toEqual([expect.stringMatching(new RegExp(`^rows-y\\.bin\\.${process.pid}-[0-9a-f]{12}\\.tmp$`))]);
    file.close();
    expect(readdirSync(dir)).toEqual([]);
    // kept: renamed into place, and left there when closed
    const kept = RowsScratch.create(rowsPath)!;
    expect(kept.inProgress()!.keepAs(rowsPath)).toBe(true);
    expect(kept.inProgress()).toBeNull();
    kept.close();
    expect(readdirSync(dir)).toEqual(['rows-y.bin']);
    // a file some thread could not write its rows to is never offered as a rows file
    const short = RowsScratch.create(rowsPath)!;
    short.complete = false;
    expect(short.inProgress()).toBeNull();
    short.close();
    expect(readdirSync(dir)).toEqual(['rows-y.bin']);
    // without a cache: a scratch file, nameless from the start
    const scratch = RowsScratch.create(null)!;
    expect(scratch.inProgress()).toBeNull();
    scratch.close();
    expect(readdirSync(dir)).toEqual(['rows-y.bin']);
  });
});
