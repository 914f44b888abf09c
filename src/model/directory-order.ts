// The directory's list order, in a module of its own: model/types.ts is bundled into the browser's
// autocomplete module, which has no use for it.
import type { DirectoryObject } from './types.ts';

/** By model, then id. */
export function compareDirectory(a: Pick<DirectoryObject, 'model' | 'id'>, b: Pick<DirectoryObject, 'model' | 'id'>): number {
  return a.model === b.model ? a.id - b.id : a.model < b.model ? -1 : 1;
}
