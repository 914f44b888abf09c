// Typo-tolerant term lookup: every term within k edits of a word, where an edit is an insertion,
// deletion, substitution or swap of two adjacent characters (optimal string alignment).
//
// A depth-first walk of the term trie carrying one banded DP row per depth (only the 2k+1
// cells with |j − depth| ≤ k can be ≤ k); a subtree is skipped as soon as its row has no cell
// ≤ k. Everything lives in typed arrays, so a 2-edit lookup over a dense 40k-term dictionary
// stays well under a millisecond. (MiniSearch's radix-tree fuzzyGet took 3–17 ms per 2-edit
// lookup on 40k–400k terms, and building its tree cost ~1 s at load for 400k terms.)
import type { Trie } from '../../store/format/term-trie.ts';

/** Every term within `maxEdits` of `word`, visited with its distance; returns the DP cells computed (its work). */
export function fuzzyTerms(trie: Trie, word: string, maxEdits: number, visit: (term: number, distance: number) => void): number {
  const m = word.length;
  const k = maxEdits;
  const { char, end, term } = trie;
  if (k <= 0 || end.length <= 1 || m - k > trie.maxDepth) return 0;
  let cells = 0;
  const maxDepth = Math.min(trie.maxDepth, m + k);
  const INF = k + 1;
  const q = new Int32Array(m);
  for (let j = 0; j < m; j++) q[j] = word.charCodeAt(j);
  // rows[d][j] = distance between the walked prefix of length d and word[0, j). Only the band
  // is ever written; cells outside stay INF, which is exactly what the recurrence needs there.
  const rows: Int32Array[] = [];
  for (let d = 0; d <= maxDepth; d++) rows.push(new Int32Array(m + 1).fill(INF));
  for (let j = 0; j <= Math.min(m, k); j++) rows[0][j] = j;

  const walk = (node: number, d: number, prevChar: number): void => {
    const prev = rows[d];
    const cur = rows[d + 1];
    const pp = d > 0 ? rows[d - 1] : prev;
    const nd = d + 1;
    const jlo = Math.max(1, nd - k);
    const jhi = Math.min(m, nd + k);
    for (let child = node + 1; child < end[node]; child = end[child]) {
      const c = char[child];
      let min = INF;
      if (nd <= k) {
        cur[0] = nd;
        min = nd;
      }
      cells += jhi - jlo + 1;
      for (let j = jlo; j <= jhi; j++) {
        let v = prev[j - 1] + (q[j - 1] === c ? 0 : 1);
        const del = prev[j] + 1;
        if (del < v) v = del;
        const ins = cur[j - 1] + 1;
        if (ins < v) v = ins;
        if (j > 1 && d > 0 && c === q[j - 2] && prevChar === q[j - 1] && pp[j - 2] + 1 < v) v = pp[j - 2] + 1;
        cur[j] = v;
        if (v < min) min = v;
      }
      if (min > k) continue;
      if (term[child] >= 0 && cur[m] <= k) visit(term[child], cur[m]);
      if (nd < maxDepth) walk(child, nd, c);
    }
  };
  walk(0, 0, -1);
  return cells;
}
