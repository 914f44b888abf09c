// A character trie over the sorted term dictionary, in flat typed arrays, for the typo walk.
// Built at load in one pass (sorted terms share prefixes with their predecessor) instead of
// being stored: it is derived data, and the pass costs a few milliseconds.
//
// Nodes are numbered in preorder, so a node's subtree is the range (node, end[node]) and its
// children are found by hopping: first child node+1, next sibling end[child].

export interface Trie {
  /** UTF-16 code unit on the edge into the node (root: unused) */
  char: Uint16Array;
  /** one past the last node of the node's subtree */
  end: Int32Array;
  /** index of the term ending at the node, or −1 */
  term: Int32Array;
  /** longest term, in code units */
  maxDepth: number;
}

/** `terms` must be sorted by UTF-16 code units and free of duplicates and empty strings. */
export function buildTrie(terms: readonly string[]): Trie {
  let capacity = 1;
  let maxDepth = 0;
  for (const t of terms) {
    capacity += t.length;
    if (t.length > maxDepth) maxDepth = t.length;
  }
  const char = new Uint16Array(capacity);
  const end = new Int32Array(capacity);
  const term = new Int32Array(capacity).fill(-1);
  const path = new Int32Array(maxDepth + 1); // path[d] = node at depth d on the current term
  let depth = 0;
  let n = 1; // node 0 is the root
  let prev = '';
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    let l = 0;
    const max = Math.min(prev.length, t.length);
    while (l < max && prev.charCodeAt(l) === t.charCodeAt(l)) l++;
    for (; depth > l; depth--) end[path[depth]] = n; // close the subtrees we leave
    for (let d = l; d < t.length; d++) {
      char[n] = t.charCodeAt(d);
      path[++depth] = n++;
    }
    term[path[depth]] = i;
    prev = t;
  }
  for (; depth > 0; depth--) end[path[depth]] = n;
  end[0] = n;
  return { char: char.slice(0, n), end: end.slice(0, n), term: term.slice(0, n), maxDepth };
}
