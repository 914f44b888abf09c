// Binary searches: over a monotone predicate (the ordered columns' envelopes, written by the build
// and searched by the query engine), and over an ascending Uint32Array (row sets, the trigram
// index's keys) without a closure per call, as the query's loops ask for it. Only Uint32Arrays:
// a second element kind would make the search's feedback polymorphic, slower in those loops (the
// relation columns' f64 ids and autocomplete's i32 lists keep searches of their own).

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

/** First i in [from, to) of the ascending `list` with list[i] >= x; `to` if none. */
export function lowerBound(list: Uint32Array, x: number, from = 0, to = list.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where `x` is in the ascending `list`, or -1. */
export function sortedIndexOf(list: Uint32Array, x: number): number {
  const i = lowerBound(list, x);
  return i < list.length && list[i] === x ? i : -1;
}
