import { fstatSync, readSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScratchFile } from './scratch-file.ts';

describe('ScratchFile', () => {
  it('is a file no folder names, readable until closed, closed once', () => {
    const file = ScratchFile.create('rows')!;
    expect(fstatSync(file.fd).nlink).toBe(0);
    writeSync(file.fd, Buffer.from('row'), 0, 3, 0);
    const back = Buffer.alloc(3);
    readSync(file.fd, back, 0, 3, 0);
    expect(back.toString()).toBe('row');
    file.close();
    file.close(); // (once: a second close would close whatever took its descriptor number since)
  });
});
