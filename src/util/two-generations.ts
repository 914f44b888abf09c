// The values of the last few thousand keys asked for, kept in two generations: a key asked for
// again moves to the newer one, and when the newer is full the older is let go of whole. No
// bookkeeping per entry or per hit beyond a Map's, and a key asked for often stays.

export class TwoGenerations<K, V> {
  private recent = new Map<K, V>();
  private older = new Map<K, V>();

  /** `entries`: how many the two hold together, at most. */
  constructor(private readonly entries: number) {}

  /** The value kept for `key` (moved to the newer generation), or undefined. */
  get(key: K): V | undefined {
    const value = this.recent.get(key);
    if (value !== undefined || this.recent.has(key)) return value;
    const old = this.older.get(key);
    if (old !== undefined || this.older.has(key)) this.set(key, old as V);
    return old;
  }

  set(key: K, value: V): void {
    if (this.recent.size >= this.entries / 2) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(key, value);
  }
}
