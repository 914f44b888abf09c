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
  // Row d (cells d × width .. d × width + m) = distance between the walked prefix of length d and
  // word[0, j). Only the band is ever written; cells outside stay INF, which is exactly what the
  // recurrence needs there.
  const width = m + 1;
  const rows = new Int32Array((maxDepth + 1) * width).fill(INF);
  for (let j = 0; j <= Math.min(m, k); j++) rows[j] = j;
  // The walk as a loop over a stack of depths (no call per node): at depth d, the node whose
  // children are walked, the next of them, and the character into the node.
  const parent = new Int32Array(maxDepth + 1);
  const next = new Int32Array(maxDepth + 1);
  const into = new Int32Array(maxDepth + 1);
  parent[0] = 0;
  next[0] = 1;
  into[0] = -1;
  let d = 0;
  while (d >= 0) {
    const child = next[d];
    if (child >= end[parent[d]]) {
      d--;
      continue;
    }
    next[d] = end[child];
    const prevChar = into[d];
    const prev = d * width;
    const cur = prev + width;
    const pp = d > 0 ? prev - width : prev;
    const nd = d + 1;
    const jlo = Math.max(1, nd - k);
    const jhi = Math.min(m, nd + k);
    const c = char[child];
    let min = INF;
    if (nd <= k) {
      rows[cur] = nd;
      min = nd;
    }
    cells += jhi - jlo + 1;
    for (let j = jlo; j <= jhi; j++) {
      let v = rows[prev + j - 1] + (q[j - 1] === c ? 0 : 1);
      const del = rows[prev + j] + 1;
      if (del < v) v = del;
      const ins = rows[cur + j - 1] + 1;
      if (ins < v) v = ins;
      if (j > 1 && d > 0 && c === q[j - 2] && prevChar === q[j - 1] && rows[pp + j - 2] + 1 < v) v = rows[pp + j - 2] + 1;
      rows[cur + j] = v;
      if (v < min) min = v;
    }
    if (min > k) continue;
    if (term[child] >= 0 && rows[cur + m] <= k) visit(term[child], rows[cur + m]);
    if (nd < maxDepth) {
      d = nd;
      parent[d] = child;
      next[d] = child + 1;
      into[d] = c;
    }
  }
  return cells;
}
