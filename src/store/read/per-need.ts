// Loading per need: a source that fetches its files as answers first need them (the edge worker,
// whose isolate would otherwise fetch and hash every data file before its first answer) holds a
// file only once it has been fetched and verified. The loader reads through it synchronously, so
// a file not at hand yet is asked for by throwing FileNeeded; the caller fetches it and asks again.
// Everything the loader makes from a file is made when first read, and kept.

/** A file an answer needs that the source has not fetched yet: fetch (and verify) it, then ask again. */
export class FileNeeded extends Error {
  constructor(readonly rel: string) {
    super(`${rel} is not loaded yet`);
  }
}

/**
 * `make()` when first called, then the same value. A throw (a file not at hand yet, a damaged one)
 * keeps nothing: the next call tries again.
 */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/** An object with one property per name, each made by `make(name)` when first read. */
export function lazyRecord<K extends string, V>(names: readonly K[], make: (name: K) => V): Record<K, V> {
  const record = {} as Record<K, V>;
  for (const name of names) {
    const value = once(() => make(name));
    Object.defineProperty(record, name, { get: value, enumerable: true });
  }
  return record;
}

/**
 * Makes every value of lazy records now: a source that is not read per need is checked whole at
 * load, so a bad file is refused before the first answer, not by it.
 */
export function makeAll(records: object): void {
  for (const record of Object.values(records) as Record<string, unknown>[]) for (const name of Object.keys(record)) void record[name];
}
