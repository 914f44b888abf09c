// The content watcher names what changed: dev logs it and reads only those paths again.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../test/helpers.ts';
import { watchFolder } from './watch.ts';

let dir = '';
let stop = () => {};
afterEach(() => {
  stop();
  if (dir) removeDir(dir);
});

/** The first batch the watcher reports after `act`. */
function batchAfter(act: () => void): Promise<string[]> {
  return new Promise((ok, fail) => {
    const watcher = watchFolder(dir, { debounceMs: 50, ignore: () => false, onBatch: ok, onError: fail });
    stop = () => watcher.close();
    act();
  });
}

describe('watchFolder', () => {
  it('names a folder whose own times changed as the folder, not as a child of its name', async () => {
    dir = tempDir('aula-watch-');
    mkdirSync(join(dir, 'events', '2027'), { recursive: true });
    const batch = await batchAfter(() => utimesSync(join(dir, 'events', '2027'), new Date(), new Date(0)));
    expect(batch).toEqual(['events/2027']);
  });

  it('names a change to the content folder itself as no file of it', async () => {
    dir = tempDir('aula-watch-');
    const batch = await batchAfter(() => utimesSync(dir, new Date(), new Date(0)));
    expect(batch).toEqual(['(unknown file)']);
  });

  it('names a child that has its folder’s name', async () => {
    dir = tempDir('aula-watch-');
    mkdirSync(join(dir, 'events', '2027'), { recursive: true });
    const batch = await batchAfter(() => writeFileSync(join(dir, 'events', '2027', '2027'), 'x'));
    expect(batch).toEqual(['events/2027/2027']);
  });
});
