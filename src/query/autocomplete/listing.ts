// The no-q listing: every object of the chosen models in document (= listing) order. Nothing is
// scored; a page is a slice of the per-model document lists merged in order.
import type { IndexData } from '../../store/format/autocomplete-index.ts';
import { DIRECTORY_MODELS } from '../../model/types.ts';

export interface DocPage {
  count: number;
  docs(offset: number, limit: number): ArrayLike<number>;
}

export function listing(index: IndexData, modelMask: number): DocPage {
  const all = (1 << DIRECTORY_MODELS.length) - 1;
  if ((modelMask & all) === all) {
    return {
      count: index.size,
      docs: (offset, limit) => range(offset, Math.min(index.size, offset + limit)),
    };
  }
  const lists = index.byModel.filter((_, i) => (modelMask & (1 << i)) !== 0);
  const count = lists.reduce((n, l) => n + l.length, 0);
  return { count, docs: (offset, limit) => merged(lists, index.size, offset, Math.min(count, offset + limit)) };
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = from; d < to; d++) out.push(d);
  return out;
}

/** Rows [offset, end) of the union of disjoint ascending lists. */
function merged(lists: Int32Array[], size: number, offset: number, end: number): number[] {
  if (offset >= end) return [];
  // The first row's document is the smallest v with |{listed docs ≤ v}| > offset; bisect on v rather
  // than merging from the start, so deep offsets cost no more than the first page.
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (countBelow(lists, mid + 1) > offset) hi = mid;
    else lo = mid + 1;
  }
  const pos = lists.map((l) => lowerBound(l, lo));
  const out: number[] = [];
  while (out.length < end - offset) {
    let pick = -1;
    for (let i = 0; i < lists.length; i++) {
      if (pos[i] < lists[i].length && (pick < 0 || lists[i][pos[i]] < lists[pick][pos[pick]])) pick = i;
    }
    if (pick < 0) break;
    out.push(lists[pick][pos[pick]++]);
  }
  return out;
}

function countBelow(lists: Int32Array[], v: number): number {
  let n = 0;
  for (const l of lists) n += lowerBound(l, v);
  return n;
}

function lowerBound(list: Int32Array, v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
