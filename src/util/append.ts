// `into.push(...items)` passes every item as an argument on the stack, which overflows past some
// 100k items (a content with that many problems, a folder with that many files): lists whose
// length the input decides are appended one by one.

/** Appends every item of `items` to `into`, in order; returns `into`. */
export function append<T>(into: T[], items: Iterable<T>): T[] {
  for (const item of items) into.push(item);
  return into;
}
