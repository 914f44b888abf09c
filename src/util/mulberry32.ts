// mulberry32: a tiny seedable PRNG for tests and benchmarks that must draw the same sequence on
// every machine and Node version (Math.random() cannot be seeded). All arithmetic is 32-bit
// integer math. It has no imports, so any layer may use it. The content generator keeps its
// own sfc32 streams (gen/random.ts): their sequence is what the bundled sample content is.

/** Uniform numbers in [0, 1) from `seed`. */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
