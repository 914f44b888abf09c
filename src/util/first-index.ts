// A binary search over a monotone predicate, for the ordered columns' envelopes (written by the
// build, searched by the query engine).

/** First i in [0, n) with pred(i), pred monotone false→true; n if none. */
export function firstIndex(n: number, pred: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
