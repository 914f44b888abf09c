// A recursive watch of the content folder that reports settled batches of changed files: an
// editor's save is several events (write, rename, chmod) and a checkout touches many files, and
// either should cause one rebuild, not a burst.
import { watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';

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

export function watchFolder(dir: string, options: WatchOptions): { close(): void } {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const batch = [...changed].sort();
    changed.clear();
    if (batch.length > 0) options.onBatch(batch);
  };
  // node:fs watch is recursive on Linux, macOS and Windows from Node 20 on, new subfolders included
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, filename) => {
    // some platforms cannot name the file; a rebuild is still right
    const path = filename ? filename.toString().split(sep).join('/') : '(unknown file)';
    if (EDITOR_NOISE.test(path) || options.ignore(path)) return;
    changed.add(path);
    clearTimeout(timer);
    timer = setTimeout(flush, options.debounceMs);
  });
  watcher.on('error', options.onError);
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
