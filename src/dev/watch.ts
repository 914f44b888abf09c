// A recursive watch of the content folder that reports settled batches of changed files: an
// editor's save is several events (write, rename, chmod) and a checkout touches many files, and
// either should cause one rebuild, not a burst.
//
// On Linux, node's `recursive: true` is emulated in JavaScript and follows files by inode: after
// an editor's atomic save (write a temporary file, rename it over the original) it no longer
// sees that file, so deleting or moving it away later went unnoticed and dev kept serving it.
// Here every folder is watched itself (inotify on a folder reports every name that appears in
// it or leaves it, whatever inode it has), and folders that appear or go are added or dropped.
// macOS and Windows watch recursively in the kernel, by name; there node's own watch is used.
import { lstatSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';

export interface WatchOptions {
  /** quiet time before a batch is reported */
  debounceMs: number;
  /** paths (relative, `/`-separated) whose changes do not matter */
  ignore: (path: string) => boolean;
  onBatch: (changed: string[]) => void;
  onError: (error: Error) => void;
}

/** Swap files, backups and lock files of common editors: saving must not rebuild twice. */
const EDITOR_NOISE = /(?:^|\/)(?:\.#[^/]*|#[^/]*#|[^/]*~|[^/]*\.sw[a-p]|4913|\.DS_Store)$/;

const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

export function watchFolder(dir: string, options: WatchOptions): { close(): void } {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const batch = [...changed].sort();
    changed.clear();
    if (batch.length > 0) options.onBatch(batch);
  };
  const report = (path: string) => {
    if (EDITOR_NOISE.test(path) || options.ignore(path)) return;
    changed.add(path);
    clearTimeout(timer);
    timer = setTimeout(flush, options.debounceMs);
  };
  const tree = NATIVE_RECURSIVE ? watchNative(dir, report, options.onError) : watchEveryFolder(dir, report, options);
  return {
    close() {
      clearTimeout(timer);
      tree.close();
    },
  };
}

function watchNative(dir: string, report: (path: string) => void, onError: (e: Error) => void): { close(): void } {
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, filename) => {
    // some platforms cannot name the file; a rebuild is still right
    report(filename ? filename.toString().split(sep).join('/') : '(unknown file)');
  });
  watcher.on('error', onError);
  return watcher;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  return folderIdentity(path) !== null;
}

/** Which folder is at `path` (null: none): its inode and birth time, as a folder made anew may reuse the inode of the one it replaced. */
function folderIdentity(path: string): string | null {
  try {
    const info = lstatSync(path, { bigint: true });
    return info.isDirectory() ? `${info.ino}:${info.birthtimeNs}` : null;
  } catch {
    return null;
  }
}

/** How often a content folder that went is looked for again. */
const ROOT_POLL_MS = 250;

function watchEveryFolder(root: string, report: (path: string) => void, options: WatchOptions): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
  const relativePath = (abs: string) => relative(root, abs).split(sep).join('/');
  let closed = false;
  let looking: NodeJS.Timeout | undefined;
  let rootIdentity = folderIdentity(root);

  /**
   * The content folder itself went (removed, moved away, replaced by a script that makes it anew):
   * its watches follow the old folder, so they are dropped, and the folder is looked for until it is there again; then it is watched anew
   * and read whole (an unnamed change: dev rescans).
   */
  const rootReplaced = () => {
    drop(root);
    clearTimeout(looking);
    const lookAgain = () => {
      if (closed) return;
      rootIdentity = folderIdentity(root);
      if (rootIdentity === null) {
        looking = setTimeout(lookAgain, ROOT_POLL_MS).unref();
        return;
      }
      try {
        add(root);
      } catch (e) {
        options.onError(e as Error);
        return;
      }
      report('');
    };
    report('');
    lookAgain();
  };

  /** Watches `top` and every folder below it (not through symbolic links). */
  const add = (top: string) => {
    const stack = [top];
    while (stack.length > 0) {
      const folder = stack.pop()!;
      if (watchers.has(folder) || (folder !== root && options.ignore(relativePath(folder)))) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(folder, (event, name) => changedIn(folder, event, name));
      } catch (e) {
        if (folder === root) throw e;
        continue; // gone again already
      }
      watcher.on('error', (e) => {
        // A watched folder that is removed can end its watch with an error; so can the root
        if (folder === root && !isFolder(root)) return rootReplaced();
        drop(folder);
        if (folder === root) options.onError(e);
      });
      watchers.set(folder, watcher);
      let entries: string[] = [];
      try {
        entries = readdirSync(folder, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name);
      } catch {
        // removed meanwhile: its own event follows
      }
      for (const name of entries) stack.push(join(folder, name));
    }
  };

  const drop = (folder: string) => {
    for (const [path, watcher] of watchers) {
      if (path === folder || path.startsWith(folder + sep)) {
        watcher.close();
        watchers.delete(path);
      }
    }
  };

  const changedIn = (folder: string, event: string, name: string | Buffer | null) => {
    if (name === null) {
      report(relativePath(folder) || '(unknown file)');
      return;
    }
    let abs = join(folder, name.toString());
    // A change to the watched folder itself (its times, its mode, its removal) comes named by the
    // folder's own name, as if a child of that name changed: it is the folder, unless such a child
    // exists.
    if (name.toString() === basename(folder) && !exists(abs)) abs = folder;
    // the content folder itself went, or is another folder now (its times or mode changed: the same one)
    if (abs === root && folderIdentity(root) !== rootIdentity) return rootReplaced();
    report(relativePath(abs) || '(unknown file)');
    if (abs === folder) return;
    if (event !== 'rename') return;
    // A name appeared or went: a new folder (made, or moved in) is watched, a gone one dropped.
    let isFolder = false;
    try {
      isFolder = lstatSync(abs).isDirectory();
    } catch {
      // gone
    }
    // Dropped first even when it is a folder: one moved in over a watched name is a new folder.
    drop(abs);
    if (isFolder) add(abs);
  };

  add(root);
  return {
    close() {
      closed = true;
      clearTimeout(looking);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
