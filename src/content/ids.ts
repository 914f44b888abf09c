// Id bookkeeping shared by the record kinds: uniqueness and pointing back at a record.
import type { FileIssue, Issue, Path } from './problems.ts';
import type { Sourced } from './records.ts';

/**
 * A record whose id is missing or invalid keeps NaN, so that its other keys are still checked;
 * its own problem is already reported, and NaN ids take part in no id check.
 */
export function idOrNaN(id: number | undefined): number {
  return id ?? Number.NaN;
}

export function issueAt(r: Sourced<unknown>, key: Path, message: string, at: Issue['at'] = 'value'): FileIssue {
  return { file: r.file, item: r.item, key, at, message };
}

export function describeSource(r: Sourced<unknown>): string {
  return r.item === null ? r.file : `${r.file}, list item ${r.item + 1}`;
}

/** Records by id; each repeat of an id is reported at its `key`, naming the first. */
export function indexById<T>(
  records: readonly Sourced<T>[],
  idOf: (value: T) => number,
  what: string,
  key: string,
  out: FileIssue[],
): Map<number, Sourced<T>> {
  const byId = new Map<number, Sourced<T>>();
  for (const r of records) {
    const id = idOf(r.value);
    if (Number.isNaN(id)) continue;
    const first = byId.get(id);
    if (first) out.push(issueAt(r, [key], `duplicate ${what} ${id} (first defined in ${describeSource(first)})`));
    else byId.set(id, r);
  }
  return byId;
}
