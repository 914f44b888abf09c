// Integer arrays that grow as indexes past their end are written: doubled, so that filling one
// an index at a time copies each value a bounded number of times.

/** `array`'s values in a new array long enough for `index` (at least twice as long); the rest zero. */
export function grown(array: Int32Array, index: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(Math.max(index + 1, array.length * 2));
  bigger.set(array);
  return bigger;
}
