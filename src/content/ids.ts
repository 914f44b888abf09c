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

/** How many of the other records an id is also defined in a problem names, at most. */
const NAMED_REPEATS = 3;

/**
 * Records by id (the first of each). An id defined more than once is reported at every record
 * that defines it, each naming the others: which of them is the mistake the files cannot say
 * (a copied file keeps its original's id and last_modified alike, and mtimes do not survive a
 * checkout), so the problem is shown in each, and the order files are read in blames none.
 */
export function indexById<T>(
  records: readonly Sourced<T>[],
  idOf: (value: T) => number,
  what: string,
  key: string,
  out: FileIssue[],
): Map<number, Sourced<T>> {
  const byId = new Map<number, Sourced<T>>();
  let repeats: Map<number, Sourced<T>[]> | undefined;
  for (const r of records) {
    const id = idOf(r.value);
    if (Number.isNaN(id)) continue;
    const first = byId.get(id);
    if (first === undefined) byId.set(id, r);
    else {
      repeats ??= new Map();
      const all = repeats.get(id);
      if (all) all.push(r);
      else repeats.set(id, [first, r]);
    }
  }
  for (const [id, all] of repeats ?? []) {
    for (const r of all) {
      const others = all.filter((o) => o !== r);
      const named = others.slice(0, NAMED_REPEATS).map(describeSource).join('; ');
      const more = others.length > NAMED_REPEATS ? `; and ${others.length - NAMED_REPEATS} more` : '';
      out.push(issueAt(r, [key], `duplicate ${what} ${id} (also defined in ${named}${more})`));
    }
  }
  return byId;
}
