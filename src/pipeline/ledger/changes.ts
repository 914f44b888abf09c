// dist/changes.json: the public paths changed, added or removed since the previous build (for a
// CDN purge), from the manifests' `public_files` hashes.
import type { Manifest } from '../../store/format/manifest.ts';

export const CHANGES_FILE = 'changes.json';

export interface Changes {
  /** false on a first build, or after a dist whose manifest listed no public files */
  since_previous: boolean;
  changed: string[];
  added: string[];
  removed: string[];
}

/** The previous build's public hashes, when it listed well-formed ones. */
export function previousPublicFiles(previous: Manifest | null): Record<string, string> | null {
  const files = previous?.public_files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return null;
  for (const hash of Object.values(files)) if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return null;
  return files;
}

export function changesBetween(previous: Record<string, string> | null, current: Record<string, string>): Changes {
  const changes: Changes = { since_previous: previous !== null, changed: [], added: [], removed: [] };
  const before = previous ?? {};
  for (const [rel, hash] of Object.entries(current)) {
    if (!Object.hasOwn(before, rel)) changes.added.push(rel);
    else if (before[rel] !== hash) changes.changed.push(rel);
  }
  for (const rel of Object.keys(before)) if (!Object.hasOwn(current, rel)) changes.removed.push(rel);
  for (const list of [changes.changed, changes.added, changes.removed]) list.sort();
  return changes;
}
