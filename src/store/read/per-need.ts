// Loading per need: a source that fetches its files as answers first need them (the edge worker,
// whose isolate would otherwise fetch and hash every data file before its first answer) holds a
// file only once it has been fetched and verified. The loader reads through it synchronously, so
// a file not at hand yet is asked for by throwing FileNeeded; the caller fetches it and asks again.
// Files read together are asked for together (gather), so the caller fetches them in one round
// and the answer is run again once, not once per file.
// Everything the loader makes from a file is made when first read, and kept.
import type { DistSource } from './dist-source.ts';
import { FormatError, type Fault } from '../format/sections.ts';
import { append } from '../../util/append.ts';

/** Files an answer needs that the source has not fetched yet: fetch (and verify) them, then ask again. */
export class FileNeeded extends Error {
  readonly rels: readonly string[];

  constructor(rels: string | readonly string[]) {
    const list = typeof rels === 'string' ? [rels] : [...new Set(rels)];
    // thrown to be caught, never shown: no stack (taking one makes V8 work out the source
    // positions of every function on it, which a fresh isolate has not needed yet)
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${list.join(', ')} ${list.length === 1 ? 'is' : 'are'} not loaded yet`);
    Error.stackTraceLimit = limit;
    this.rels = list;
  }
}

/**
 * Runs each of `steps`; those that need files not at hand yet are all tried before one FileNeeded
 * names every file they need (any other error is thrown at once). `steps` are independent: one
 * that failed for a file does not keep the next from running.
 */
export function gatherNeeds(steps: Iterable<() => void>): void {
  let missing: string[] | null = null;
  for (const step of steps) {
    try {
      step();
    } catch (e) {
      if (!(e instanceof FileNeeded)) throw e;
      append((missing ??= []), e.rels);
    }
  }
  if (missing !== null) throw new FileNeeded(missing);
}

/** Makes sure every file of `rels` is at hand: one FileNeeded names all those that are not. */
export function requireAll(source: DistSource, rels: readonly string[]): void {
  gatherNeeds(rels.map((rel) => () => source.require(rel)));
}

/**
 * A zeroed buffer of `bytes` whose memory is taken as it is written: a resizable buffer, whose
 * pages are the system's zero pages until touched, not zero-filled whole when made (as workerd
 * fills a plain one). For arrays over every row of which an isolate fills the few parts its
 * answers reach: their elements are slower to read than a plain array's, which costs a first
 * answer less than filling the whole array would.
 */
export function zeroedAsWritten(bytes: number): ArrayBuffer {
  return new ArrayBuffer(bytes, { maxByteLength: bytes });
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

/**
 * once(read), for a part of a file read per need: a damaged part, found when first read, throws
 * `fault(problem)`, which names the file as damage found at load does.
 */
export function checkedOnce<T>(fault: Fault, read: () => T): () => T {
  return once(() => {
    try {
      return read();
    } catch (e) {
      throw e instanceof FormatError ? fault(e.message) : e;
    }
  });
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
