import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { readContentFile } from '../../content/files.ts';
import { cacheIdentity, parseKey, sha256 } from './keys.ts';

const reference = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

describe('sha256', () => {
  it('is a Hash’s digest of the parts end to end, however large', () => {
    const b = (text: string) => Buffer.from(text);
    const cases: Uint8Array[][] = [
      [],
      [b('')],
      [b('one part')],
      [b('Café – „quoted“ 🎉\0'), Buffer.from([0, 1, 2, 255])],
      [Buffer.alloc(32, 7), Buffer.alloc(32, 9), b('12345')],
      // past the scratch buffer's first size, then a small one again in the grown buffer
      [b('prefix\0'), Buffer.alloc(100_000, 'é')],
      [b('a'), b('b')],
    ];
    for (const parts of cases) expect(sha256(...parts).equals(reference(...parts))).toBe(true);
    // a view into a larger buffer is hashed as its own bytes only
    const whole = b('0123456789');
    expect(sha256(whole.subarray(2, 5)).equals(reference(b('234')))).toBe(true);
    expect(sha256(b('x'), whole.subarray(2, 5)).equals(reference(b('x234')))).toBe(true);
  });
});

describe('parseKey', () => {
  it('is the same of a file read as bytes as of its text, a byte order mark and all', () => {
    const dir = tempDir('aula-parse-key-');
    try {
      const texts = ['title: Café – „quoted“ 🎉\n', '\ufefftitle: with a mark\n', '', '\ufeff', 'a\ufeffb'];
      for (const [i, text] of texts.entries()) {
        writeFileSync(join(dir, `${i}.yaml`), text);
        const read = readContentFile(dir, `${i}.yaml`);
        if (!read.ok) throw new Error('not read');
        expect(read.text).toBe(text.replace(/^\ufeff/, ''));
        expect(parseKey('events', `${i}.yaml`, read.bytes).equals(parseKey('events', `${i}.yaml`, read.text))).toBe(true);
      }
      // and it still tells texts apart
      expect(parseKey('events', 'a', Buffer.from('x')).equals(parseKey('events', 'a', 'y'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});

describe('cacheIdentity', () => {
  it('names the time-zone data and ICU: a Node on the system ICU gets new tzdata without a new version', () => {
    expect(JSON.parse(cacheIdentity())).toMatchObject({ tz: process.versions.tz, icu: process.versions.icu });
  });
});
