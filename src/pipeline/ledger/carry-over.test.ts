import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { carryOver, hardLinks } from './carry-over.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

function trees() {
  const root = tempDir('aula-carry-');
  roots.push(root);
  const old = join(root, 'dist');
  const staged = join(root, 'staged');
  for (const dir of [old, staged]) mkdirSync(join(dir, 'sub'), { recursive: true });
  return { old, staged };
}

describe('carryOver', () => {
  it('links equal files (old inode and mtime) and leaves different or new ones as written', () => {
    const { old, staged } = trees();
    const big = Buffer.alloc(3 << 20, 7);
    const bigChanged = Buffer.from(big);
    bigChanged[(3 << 20) - 1] = 8; // differs only in the last chunk
    const files: [string, Buffer | string, Buffer | string][] = [
      ['same.json', 'x', 'x'],
      ['sub/same.bin', big, big],
      ['sub/late.bin', big, bigChanged],
      ['size.json', 'ab', 'abc'],
      ['bytes.json', 'ab', 'ac'],
    ];
    for (const [rel, before, now] of files) {
      writeFileSync(join(old, rel), before);
      utimesSync(join(old, rel), 1_000, 1_000);
      writeFileSync(join(staged, rel), now);
    }
    writeFileSync(join(staged, 'new.json'), 'n');
    expect(carryOver(old, staged).sort()).toEqual(['same.json', 'sub/same.bin']);
    for (const rel of ['same.json', 'sub/same.bin']) {
      expect(statSync(join(staged, rel)).ino).toBe(statSync(join(old, rel)).ino);
      expect(statSync(join(staged, rel)).mtimeMs).toBe(1_000_000);
    }
    for (const [rel, , now] of files.slice(2)) {
      expect(statSync(join(staged, rel)).ino).not.toBe(statSync(join(old, rel)).ino);
      expect(readFileSync(join(staged, rel)).equals(Buffer.from(now))).toBe(true);
    }
  });
  it('reads no file it is told is settled (linked already, or known to differ), and compares the rest', () => {
    const { old, staged } = trees();
    for (const rel of ['a.json', 'b.json']) {
      writeFileSync(join(old, rel), 'same');
      writeFileSync(join(staged, rel), 'same');
    }
    const asked: string[] = [];
    // (told a.json differs though its bytes are equal: not carried, its own inode kept)
    expect(carryOver(old, staged, (rel) => (asked.push(rel), rel === 'a.json'))).toEqual(['b.json']);
    expect(asked.sort()).toEqual(['a.json', 'b.json']);
    expect(statSync(join(staged, 'a.json')).ino).not.toBe(statSync(join(old, 'a.json')).ino);
    expect(statSync(join(staged, 'b.json')).ino).toBe(statSync(join(old, 'b.json')).ino);
  });

  it('never links a symbolic link of the previous dist into the new one', () => {
    const { old, staged } = trees();
    const outside = join(old, '..', 'outside.txt');
    writeFileSync(outside, 'secret');
    symlinkSync(outside, join(old, 'link.json.gz'));
    writeFileSync(join(staged, 'link.json.gz'), 'secret');
    expect(carryOver(old, staged)).toEqual([]);
    expect(lstatSync(join(staged, 'link.json.gz')).isFile()).toBe(true);
  });

  it('where links are refused, keeps each equal file with the previous mtime, and tries no link after the first refusal', () => {
    const { old, staged } = trees();
    for (const rel of ['a.json', 'b.json', 'sub/c.json']) {
      writeFileSync(join(old, rel), rel);
      utimesSync(join(old, rel), 1_000, 1_000);
      writeFileSync(join(staged, rel), rel);
    }
    const linkSync = hardLinks.linkSync;
    let tried = 0;
    hardLinks.linkSync = () => {
      tried++;
      throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
    };
    try {
      expect(carryOver(old, staged)).toHaveLength(3);
    } finally {
      hardLinks.linkSync = linkSync;
    }
    expect(tried).toBe(1);
    for (const rel of ['a.json', 'b.json', 'sub/c.json']) {
      expect(statSync(join(staged, rel)).ino).not.toBe(statSync(join(old, rel)).ino);
      expect(statSync(join(staged, rel)).mtimeMs).toBe(1_000_000);
      expect(readFileSync(join(staged, rel), 'utf8')).toBe(rel);
    }
  });

  it('does nothing without a previous dist', () => {
    const { staged } = trees();
    writeFileSync(join(staged, 'a.json'), 'a');
    expect(carryOver(join(staged, '..', 'missing'), staged)).toEqual([]);
  });
});
