import { fstatSync, readSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RowsScratch } from './rows-scratch.ts';

describe('RowsScratch', () => {
  it('is a file no folder names, its entries from the start, readable until closed, closed once', () => {
    const file = RowsScratch.create()!;
    expect(fstatSync(file.fd).nlink).toBe(0);
    expect(file.end[0]).toBe(0n);
    writeSync(file.fd, Buffer.from('row'), 0, 3, 0);
    const back = Buffer.alloc(3);
    readSync(file.fd, back, 0, 3, 0);
    expect(back.toString()).toBe('row');
    file.close();
    file.close(); // (once: a second close would close whatever took its descriptor number since)
  });
});
