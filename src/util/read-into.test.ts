import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { readFileInto } from './read-into.ts';

const made: string[] = [];
const folder = () => made[made.push(tempDir('aula-read-into-')) - 1];
afterEach(() => {
  for (const dir of made.splice(0)) removeDir(dir);
});

describe('readFileInto', () => {
  it('reads a file into its place in a larger buffer, and nothing around it', () => {
    const dir = folder();
    writeFileSync(join(dir, 'f'), 'abcd');
    const whole = Buffer.from('........');
    expect(readFileInto(join(dir, 'f'), whole.subarray(2, 6))).toBe(true);
    expect(whole.toString()).toBe('..abcd..');
  });

  it('reads nothing of a file of another length, a missing one, a link or a FIFO (never waiting on it)', () => {
    const dir = folder();
    writeFileSync(join(dir, 'f'), 'abcd');
    symlinkSync(join(dir, 'f'), join(dir, 'link'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    for (const [name, length] of [['f', 3], ['f', 5], ['none', 4], ['link', 4], ['fifo', 4]] as const) {
      const into = Buffer.from('.'.repeat(length));
      expect(readFileInto(join(dir, name), into)).toBe(false);
      expect(into.toString()).toBe('.'.repeat(length));
    }
  });
});
