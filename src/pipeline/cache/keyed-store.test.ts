import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { checksum } from '../../util/checksum.ts';
import { ENTRY_HEAD, ENTRY_KEY_BYTES, KeyedStore, storedAt } from './keyed-store.ts';

const root = tempDir('aula-keyed-');
afterAll(() => removeDir(root));
const HEAD = Buffer.from('TEST\n');
const key = (n: number) => Buffer.alloc(32, n);

/** A sealed store at `name` of two entries, 'one' under key(1) and 'two' under key(2); its path. */
function twoEntries(name: string): string {
  const path = join(root, name);
  const writing = new KeyedStore(path, HEAD);
  writing.put(key(1), [Buffer.from('one')]);
  writing.put(key(2), [Buffer.from('two')]);
  writing.seal();
  return path;
}

describe('KeyedStore.sharedIndex', () => {
  it('finds every intact entry by key in the file, and none for a key it lacks or an entry damaged since', () => {
    const path = join(root, 'shared.bin');
    const writing = new KeyedStore(path, HEAD);
    // (keys alike in their first 4 bytes: they share a slot and are told apart by the rest)
    const keys = [key(1), key(2), Buffer.concat([key(1).subarray(0, 4), Buffer.alloc(28, 9)])];
    keys.forEach((k, i) => writing.put(k, [Buffer.from(`payload ${i}`)]));
    expect(writing.seal()).toBe(true);
    const store = new KeyedStore(path, HEAD);
    const index = store.sharedIndex()!;
    expect(store.sharedIndex()).toBe(index);
    keys.forEach((k, i) => expect(storedAt(index, k)?.toString()).toBe(`payload ${i}`));
    expect(storedAt(index, key(3))).toBeNull();
    // the file changed under the index: the entry's checksum no longer matches
    const bytes = readFileSync(path);
    bytes[HEAD.length + ENTRY_HEAD] ^= 0xff;
    writeFileSync(path, bytes);
    expect(storedAt(index, keys[0])).toBeNull();
    expect(storedAt(index, keys[1])?.toString()).toBe('payload 1');
    // used as a parse thread found it: kept when sealed
    expect(store.use(keys[1])).toBe(true);
    expect(store.use(key(3))).toBe(false);
    store.close();
    expect(store.sharedIndex()).toBeNull();
  });

  it('reads no more than the length checked when the file was read, whatever a head rewritten since says', () => {
    const path = twoEntries('rewritten.bin');
    const store = new KeyedStore(path, HEAD);
    const index = store.sharedIndex()!;
    // the first entry's head rewritten in place to cover the rest of the file, its checksum made to
    // match: read by its head, it would be a longer payload (or, with a length of gigabytes, a read
    // of the whole file per lookup)
    const bytes = readFileSync(path);
    const at = HEAD.length;
    const rest = bytes.subarray(at + ENTRY_HEAD);
    bytes.writeUInt32LE(rest.length, at + ENTRY_HEAD - 4);
    checksum(rest).copy(bytes, at + ENTRY_KEY_BYTES);
    writeFileSync(path, bytes);
    expect(storedAt(index, key(1))).toBeNull();
    expect(storedAt(index, key(2))?.toString()).toBe('two');
    store.close();
  });

  it('leaves out the entries damaged when the file is read', () => {
    const path = twoEntries('damaged.bin');
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(path, bytes);
    const store = new KeyedStore(path, HEAD);
    const index = store.sharedIndex()!;
    expect(storedAt(index, key(1))?.toString()).toBe('one');
    expect(storedAt(index, key(2))).toBeNull();
    store.close();
  });
});
