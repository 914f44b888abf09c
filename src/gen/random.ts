// A small seeded PRNG for the content generator. Math.random() cannot be seeded, and the
// generated content must be byte-identical for the same seed on every machine, so all
// arithmetic here is 32-bit integer math (Math.imul, >>>) that behaves the same everywhere.

/** FNV-1a over the UTF-16 code units; used to turn labels into independent sub-seeds. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** splitmix32 finaliser: spreads nearby seeds (1, 2, 3, …) over the whole state space. */
function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), 128 bits of state. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const s = seed >>> 0;
    this.a = mix32(s);
    this.b = mix32(s ^ 0x6a09e667);
    this.c = mix32(s ^ 0xbb67ae85);
    this.d = 1;
    // The first outputs of a freshly seeded sfc32 are correlated with the seed.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /**
   * An independent stream for one part of the output. Forking per section keeps e.g. the
   * directory identical when only the number of events changes.
   */
  static derive(seed: number, label: string): Random {
    return new Random(mix32((seed >>> 0) ^ hashString(label)));
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1); exact (a 32-bit integer divided by 2^32). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    if (max < min) throw new RangeError(`int(${min}, ${max}): empty range`);
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** true with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by relative weight: weighted([['a', 3], ['b', 1]]) returns 'a' three times as often. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  /** Fisher–Yates, in place; returns the same array for chaining. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }

  /** `count` distinct items in random order (fewer if the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items.slice()).slice(0, Math.max(0, count));
  }
}
