// Page extraction from unsorted sort keys. A broad query matches tens of thousands of objects
// but a request shows twenty: sorting 60k keys costs ~6 ms, keeping the smallest
// offset+limit in a bounded max-heap costs a single pass.

/** Keys of rows offset .. offset+limit−1 in ascending key order. Owns `keys` (may sort it in place). */
export class RankedKeys {
  private sorted = false;

  constructor(private readonly keys: Float64Array) {}

  get length(): number {
    return this.keys.length;
  }

  page(offset: number, limit: number): Float64Array {
    const n = this.keys.length;
    const end = Math.min(n, offset + limit);
    if (offset >= end) return new Float64Array(0);
    if (!this.sorted && end * 8 <= n) return smallest(this.keys, end).subarray(offset);
    if (!this.sorted) this.keys.sort();
    this.sorted = true;
    return this.keys.subarray(offset, end);
  }
}

/** The k smallest keys, ascending. */
function smallest(keys: Float64Array, k: number): Float64Array {
  const heap = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const x = keys[i];
    if (size < k) {
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (heap[p] >= x) break;
        heap[c] = heap[p];
        c = p;
      }
      heap[c] = x;
    } else if (x < heap[0]) {
      let p = 0;
      for (;;) {
        let c = 2 * p + 1;
        if (c >= k) break;
        if (c + 1 < k && heap[c + 1] > heap[c]) c++;
        if (heap[c] <= x) break;
        heap[p] = heap[c];
        p = c;
      }
      heap[p] = x;
    }
  }
  return heap.sort();
}
