import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { readAllAt, readFully, writeAllAt } from './positional-io.ts';

describe('positional reads and writes', () => {
  it('write at a position, read back at one, and tell a file that ends first', () => {
    const dir = tempDir('aula-positional-');
    const fd = openSync(join(dir, 'f'), 'w+');
    try {
      writeAllAt(fd, Buffer.from('hello'), 0);
      writeAllAt(fd, Buffer.from('world'), 5);
      expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('helloworld');
      const into = Buffer.alloc(8, '.');
      readAllAt(fd, into, 2, 4, 3);
      expect(into.toString()).toBe('..lowo..');
      expect(readFully(fd, into, 0, 8, 6)).toBe(4);
      expect(() => readAllAt(fd, into, 0, 8, 6)).toThrow('a file ended at 10 of 14 bytes');
    } finally {
      closeSync(fd);
      removeDir(dir);
    }
  });
});
