import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockOut, lockPath } from './lock.ts';

const root = mkdtempSync(join(tmpdir(), 'aula-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const out = () => join(root, `dist${n++}`);

describe('lockOut', () => {
  it('writes its pid with O_EXCL and removes the lock on release', async () => {
    const dist = out();
    const release = await lockOut(dist);
    expect(readFileSync(lockPath(dist), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(lockPath(dist))).toBe(false);
  });

  it('takes over a lock naming our own pid that this process does not hold (pid reuse)', async () => {
    const dist = out();
    writeFileSync(lockPath(dist), `${process.pid}\n`);
    (await lockOut(dist, { lockWaitMs: 500 }))();
  });

  it('takes over a lock left empty by a writer that died, once its grace period is over', async () => {
    const dist = out();
    writeFileSync(lockPath(dist), '');
    (await lockOut(dist, { lockWaitMs: 600_000, emptyGraceMs: 300 }))();
    expect(existsSync(lockPath(dist))).toBe(false);
  });

  it('leaves an empty lock alone within its grace period (its writer may be filling it)', async () => {
    const dist = out();
    writeFileSync(lockPath(dist), '');
    // the wait ends within the grace period whatever the machine's speed: never taken over
    await expect(lockOut(dist, { lockWaitMs: 300, emptyGraceMs: 600_000 })).rejects.toThrow(/is locked by another build/);
    expect(readFileSync(lockPath(dist), 'utf8')).toBe('');
  });

  it('never removes a file under the lock name that aula did not write', async () => {
    const text = out();
    writeFileSync(lockPath(text), 'my notes\n');
    await expect(lockOut(text, { lockWaitMs: 500 })).rejects.toThrow(/is in the way of the build lock/);
    expect(readFileSync(lockPath(text), 'utf8')).toBe('my notes\n');
    const fifo = out();
    if (spawnSync('mkfifo', [lockPath(fifo)]).status === 0) {
      await expect(lockOut(fifo, { lockWaitMs: 500 })).rejects.toThrow(/is in the way/);
      expect(existsSync(lockPath(fifo))).toBe(true);
    }
    const dangling = out();
    symlinkSync(join(root, 'nowhere'), lockPath(dangling));
    await expect(lockOut(dangling, { lockWaitMs: 500 })).rejects.toThrow(/is in the way/);
  });
});
