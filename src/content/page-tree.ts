// pages.yaml: the page tree behind event breadcrumbs.
import type { PageNode } from '../model/types.ts';
import type { Fields } from './fields.ts';
import type { FileIssue } from './problems.ts';
import { idOrNaN, indexById, issueAt } from './ids.ts';
import type { Sourced } from './records.ts';
import { PAGE } from './shapes.ts';

const P = PAGE.fields;

export function readPage(f: Fields): PageNode {
  const page: PageNode = {
    uid: idOrNaN(f.read(P.uid)),
    pid: f.read(P.pid),
    title: f.read(P.title) ?? '',
    is_siteroot: f.read(P.is_siteroot),
    domains: f.read(P.domains),
    uri: f.read(P.uri),
  };
  f.rejectUnknown();
  return page;
}

/** Unique uids, parents that exist, and no cycles; returns the pages by uid. */
export function checkPages(records: Sourced<PageNode>[], out: FileIssue[]): Map<number, Sourced<PageNode>> {
  const byUid = indexById(records, (p) => p.uid, 'page uid', 'uid', out);
  for (const r of byUid.values()) {
    const { pid } = r.value;
    if (pid !== 0 && Number.isSafeInteger(pid) && !byUid.has(pid)) {
      out.push(issueAt(r, ['pid'], `no page has uid ${pid} (use 0 for a root)`));
    }
  }
  for (const cycle of findCycles(byUid)) {
    // Reported once, at the member with the smallest uid, so the message does not repeat.
    const first = cycle.reduce((a, b) => (b.value.uid < a.value.uid ? b : a));
    const start = cycle.indexOf(first);
    const uids = [...cycle.slice(start), ...cycle.slice(0, start), first].map((r) => r.value.uid);
    out.push(issueAt(first, ['pid'], `the page tree has a cycle: ${uids.join(' → ')} (each page's pid leads to the next)`));
  }
  return byUid;
}

function parentOf(node: Sourced<PageNode>, byUid: Map<number, Sourced<PageNode>>): Sourced<PageNode> | undefined {
  return node.value.pid === 0 ? undefined : byUid.get(node.value.pid);
}

/** Each cycle of pid links, as its members in link order. */
function findCycles(byUid: Map<number, Sourced<PageNode>>): Sourced<PageNode>[][] {
  const done = new Set<number>();
  const cycles: Sourced<PageNode>[][] = [];
  for (const uid of byUid.keys()) {
    const path: Sourced<PageNode>[] = [];
    const onPath = new Map<number, number>();
    for (let node = byUid.get(uid); node && !done.has(node.value.uid); node = parentOf(node, byUid)) {
      const seen = onPath.get(node.value.uid);
      if (seen !== undefined) {
        cycles.push(path.slice(seen));
        break;
      }
      onPath.set(node.value.uid, path.length);
      path.push(node);
    }
    for (const node of path) done.add(node.value.uid);
  }
  return cycles;
}
