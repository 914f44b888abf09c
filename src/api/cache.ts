// A bounded LRU of finished answers, so that a URL asked for over and over costs a map lookup.
// Answers are pure functions of (path, query, Accept) over one dataset; a new dataset gets a
// new cache, so nothing here is ever stale.
import type { ApiResponse } from './respond.ts';

export interface CacheLimits {
  entries: number;
  bytes: number;
}

export const DEFAULT_CACHE_LIMITS: CacheLimits = { entries: 2_000, bytes: 64 * 1024 * 1024 };

const weight = (key: string, r: ApiResponse) => key.length * 2 + (typeof r.body === 'string' ? r.body.length * 2 : r.body.length);

export class ResponseCache {
  private readonly map = new Map<string, ApiResponse>();
  private bytes = 0;

  constructor(private readonly limits: CacheLimits = DEFAULT_CACHE_LIMITS) {}

  get(key: string): ApiResponse | undefined {
    const hit = this.map.get(key);
    if (hit) {
      // re-insert: Map iteration order is the recency order
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  set(key: string, response: ApiResponse): void {
    const size = weight(key, response);
    if (size > this.limits.bytes / 8) return;
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= weight(key, old);
    }
    this.map.set(key, response);
    this.bytes += size;
    for (const [k, v] of this.map) {
      if (this.map.size <= this.limits.entries && this.bytes <= this.limits.bytes) break;
      this.map.delete(k);
      this.bytes -= weight(k, v);
    }
  }

  get size(): number {
    return this.map.size;
  }
}
