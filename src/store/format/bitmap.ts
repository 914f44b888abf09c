// A bit set over n rows or values, as the data files store it: 32 to a word, bit i of word i >>> 5.

/** Words of a bit set over `n` rows or values. */
export const bitmapWords = (n: number) => (n + 31) >>> 5;
