import { spawnSync } from 'node:child_process';
import { closeSync, linkSync, truncateSync, readdirSync, readFileSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { openCacheFile, openTemporary, readCacheFile, readSealedValue, writeSealed } from './cache-file.ts';

let dir: string;
afterEach(() => removeDir(dir));

describe('cache files', () => {
  it('reads a regular file', () => {
    dir = tempDir('aula-cache-file-');
    const path = join(dir, 'rows.bin');
    writeFileSync(path, 'ab');
    expect(readCacheFile(path, 2)?.toString()).toBe('ab');
    expect(readCacheFile(join(dir, 'none'), 2)).toBeNull();
  });

  it('takes a file larger than its reader can use, or sparse, for none, from its stat alone', () => {
    dir = tempDir('aula-cache-file-');
    const path = join(dir, 'rows.bin');
    writeFileSync(path, 'abc');
    expect(readCacheFile(path, 2)).toBeNull();
    expect(readCacheFile(path, 3)?.toString()).toBe('abc');
    // 1.5 GB of which a few bytes are stored: a read of it would fill memory with zeros
    truncateSync(path, 1.5e9);
    expect(openCacheFile(path)).toBeNull();
    expect(readCacheFile(path, 2 ** 31 - 1)).toBeNull();
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(1e9);
  });

  it('takes no FIFO, device, folder or link for one, at once', () => {
    dir = tempDir('aula-cache-file-');
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'precious');
    symlinkSync(outside, join(dir, 'link'));
    symlinkSync('/dev/zero', join(dir, 'zero'));
    linkSync(outside, join(dir, 'hard'));
    // (a read that waited on the FIFO or read /dev/zero for ever would never return: no bound on time tells more)
    for (const name of ['fifo', 'link', 'zero']) {
      expect([name, readCacheFile(join(dir, name), 100)]).toEqual([name, null]);
    }
    expect(readCacheFile(dir, 100)).toBeNull();
    expect(openCacheFile('/dev/zero')).toBeNull();
    // a hard link is the same file: read as it is
    expect(readCacheFile(join(dir, 'hard'), 100)?.toString()).toBe('precious');
    expect(readFileSync(outside, 'utf8')).toBe('precious');
  });

  it('makes each temporary anew at a name of its own, and writes through nothing planted', () => {
    dir = tempDir('aula-cache-file-');
    const path = join(dir, 'parsed-0123456789abcdef.bin');
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'precious');
    // the names temporaries had, each a link to a file elsewhere
    symlinkSync(outside, `${path}.${process.pid}.tmp`);
    const a = openTemporary(path);
    closeSync(a.fd);
    const b = openTemporary(path);
    writeSync(b.fd, 'new');
    closeSync(b.fd);
    expect(a.path).toMatch(new RegExp(`^${path.replace(/[.]/g, '\\.')}\\.${process.pid}-[0-9a-f]{12}\\.tmp$`));
    expect(b.path).not.toBe(a.path);
    expect(readFileSync(b.path, 'utf8')).toBe('new');
    // and a file replaced through one
    expect(writeSealed(path, 'head ', [Buffer.from('"whole"')])).toBe(true);
    expect(readSealedValue(path, 'head ', 100, true)).toBe('whole');
    expect(readFileSync(outside, 'utf8')).toBe('precious');
  });

  it('removes a temporary whose write failed, leaving nothing behind', () => {
    dir = tempDir('aula-cache-file-');
    // (a write that fails once the file is open, as on a full disk)
    expect(writeSealed(join(dir, 'rows.bin'), 'head ', [null as unknown as Uint8Array])).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
