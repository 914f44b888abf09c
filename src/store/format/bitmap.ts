// A bit set over n rows or values, as the data files store it: 32 to a word, bit i of word i >>> 5.
// The helpers both sides share: the build fills and reads back its sets, the server counts them.

/** Words of a bit set over `n` rows or values. */
export const bitmapWords = (n: number) => (n + 31) >>> 5;

/** Set bits of one 32-bit word. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Set bits of a bit set. */
export function bitCount(bits: Int32Array): number {
  let n = 0;
  for (let w = 0; w < bits.length; w++) n += popcount32(bits[w]);
  return n;
}

/** The bit set of `words` words holding the numbers of `list` (each below words × 32). */
export function bitmapOf(list: ArrayLike<number>, words: number): Int32Array {
  const bits = new Int32Array(words);
  for (let k = 0; k < list.length; k++) bits[list[k] >>> 5] |= 1 << (list[k] & 31);
  return bits;
}

/** Calls `each` with the set bits of `bits`, ascending. */
export function eachSetBit(bits: Int32Array, each: (n: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    while (x !== 0) {
      const low = x & -x;
      each((w << 5) | (31 - Math.clz32(low)));
      x ^= low;
    }
  }
}
