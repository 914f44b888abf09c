// The content watcher names what changed: dev logs it and reads only those paths again.
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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

  it.skipIf(process.platform === 'darwin' || process.platform === 'win32')('watches a content folder removed and made anew, or moved away and back, as the new one', async () => {
    dir = tempDir('aula-watch-');
    const content = join(dir, 'content');
    mkdirSync(join(content, 'events'), { recursive: true });
    const batches: string[][] = [];
    let waiting: ((b: string[]) => void) | null = null;
    const next = () => new Promise<string[]>((ok) => (batches.length > 0 ? ok(batches.shift()!) : (waiting = ok)));
    const watcher = watchFolder(content, {
      debounceMs: 50,
      ignore: () => false,
      onBatch: (b) => (waiting ? (waiting(b), (waiting = null)) : batches.push(b)),
      onError: (e) => {
        throw e;
      },
    });
    stop = () => watcher.close();
    /** The batches until one names `file`: the folder's own change ('') comes first. */
    const until = async (file: string) => {
      const seen: string[] = [];
      while (!seen.includes(file)) seen.push(...(await next()));
      return seen;
    };
    rmSync(content, { recursive: true });
    mkdirSync(join(content, 'events'), { recursive: true });
    // the folder went and came back: read whole (an unnamed change), then watched as the new one
    expect(await until('')).toContain('');
    // (a file in the folder itself: only the folder's own watch sees it)
    writeFileSync(join(content, 'site.yaml'), 'title: a\n');
    expect(await until('site.yaml')).toContain('site.yaml');
    // moved back, it is the same folder, its watches still its own: read whole either way
    renameSync(content, join(dir, 'away'));
    renameSync(join(dir, 'away'), content);
    const moved = await next();
    expect(moved.includes('') || moved.includes('(unknown file)')).toBe(true);
    writeFileSync(join(content, 'events', 'b.yaml'), 'id: 2\n');
    expect(await until('events/b.yaml')).toContain('events/b.yaml');
  }, 60_000);
});
