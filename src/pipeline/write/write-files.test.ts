import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { writeAt, writeFileLater } from './write-files.ts';

// a file system whose writes make no progress, when `stuck` says so
const { stuck } = vi.hoisted(() => ({ stuck: { on: false } }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const write = (...args: unknown[]) => {
    const done = args[args.length - 1] as (e: null, n: number) => void;
    if (stuck.on) setImmediate(() => done(null, 0));
    else (fs.write as (...a: unknown[]) => void)(...args);
  };
  return { ...fs, default: { ...fs, write }, write };
});

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

describe('writeFileLater', () => {
  it('writes a file, its folders made', async () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    await Promise.all([writeFileLater(join(dir, 'a/b/c.json'), 'c'), writeFileLater(join(dir, 'd.bin'), Buffer.from([1, 2]))]);
    expect(readFileSync(join(dir, 'a/b/c.json'), 'utf8')).toBe('c');
    expect([...readFileSync(join(dir, 'd.bin'))]).toEqual([1, 2]);
  });

  it('writes a file whole while this thread does not yield', async () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    // many times the 512 KiB a step of fs/promises' writeFile, each step of which waits for a turn of this thread
    const bytes = Buffer.alloc(8 << 20, 7);
    const writing = writeFileLater(join(dir, 'part.bin'), bytes);
    const path = join(dir, 'part.bin');
    // the thread blocked (no turn of its event loop) until the file is whole; the deadline is only a safety net
    const nap = new Int32Array(new SharedArrayBuffer(4));
    const deadline = Date.now() + 60_000;
    const size = () => (existsSync(path) ? statSync(path).size : -1);
    while (size() < bytes.byteLength && Date.now() < deadline) Atomics.wait(nap, 0, 0, 5);
    expect(size()).toBe(bytes.byteLength);
    await writing;
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('writes an empty file', async () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    await writeFileLater(join(dir, 'empty.json'), '');
    expect(readFileSync(join(dir, 'empty.json'), 'utf8')).toBe('');
  });

  it('rejects with the path named', async () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    mkdirSync(join(dir, 'taken.json')); // a folder where a file is to go
    const failure = await writeFileLater(join(dir, 'taken.json'), 'x').then(() => null, (e: unknown) => e as NodeJS.ErrnoException);
    expect(failure?.code).toBe('EISDIR');
    expect(failure?.path).toBe(join(dir, 'taken.json'));
  });

  it('fails a write that makes no progress with EIO, never tries it again for ever', async () => {
    const dir = tempDir('aula-write-');
    roots.push(dir);
    const fd = openSync(join(dir, 'stuck.bin'), 'w');
    stuck.on = true;
    try {
      await expect(writeAt(fd, Buffer.from('abc'), 3, 0)).rejects.toMatchObject({ code: 'EIO' });
    } finally {
      stuck.on = false;
      closeSync(fd);
    }
  });
});
