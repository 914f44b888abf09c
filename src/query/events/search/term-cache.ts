// The rows of the last search terms, kept: search boxes ask for the same words again and again,
// and a term's rows cost a merge of every word that holds it. A kept term is charged the work its
// merge counted (work-budget.ts), so a request costs the same whether or not one before it left
// the term here.
import type { Bits } from './bits.ts';

export interface TermRows {
  /** the term's rows (never written to once kept) */
  bits: Bits;
  count: number;
  /** units computing them counted */
  units: number;
}

export class TermCache {
  private readonly map = new Map<string, TermRows>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): TermRows | undefined {
    const hit = this.map.get(key);
    if (hit) {
      // Map iteration order is the recency order
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  offer(key: string, rows: TermRows): void {
    if (this.map.has(key) || rows.bits.byteLength > this.maxBytes) return;
    this.map.set(key, rows);
    this.bytes += rows.bits.byteLength;
    for (const [k, r] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= r.bits.byteLength;
    }
  }

  get size(): number {
    return this.map.size;
  }
}
