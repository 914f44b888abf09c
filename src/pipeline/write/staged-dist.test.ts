import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { writeFiles } from './staged-dist.ts';

// a disk that is full, when `full` says so: node names no path when the write itself fails
const { full } = vi.hoisted(() => ({ full: { on: false } }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeFileSync = (...args: unknown[]) => {
    if (full.on) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    (fs.writeFileSync as (...a: unknown[]) => void)(...args);
  };
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync };
});

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

describe('writeFiles', () => {
  it('writes each file, its folders made', () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    writeFiles(dir, new Map<string, string | Uint8Array>([['a/b/c.json', 'c'], ['d.bin', Buffer.from([1, 2])], ['empty.json', '']]));
    expect(readFileSync(join(dir, 'a/b/c.json'), 'utf8')).toBe('c');
    expect([...readFileSync(join(dir, 'd.bin'))]).toEqual([1, 2]);
    expect(readFileSync(join(dir, 'empty.json'), 'utf8')).toBe('');
  });

  it('names the path of a write that fails', () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    full.on = true;
    try {
      expect(() => writeFiles(dir, new Map([['part.bin', 'x']]))).toThrow(expect.objectContaining({ code: 'ENOSPC', path: join(dir, 'part.bin') }));
    } finally {
      full.on = false;
    }
  });
});
