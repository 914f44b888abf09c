// Names of files as one part of a file: one UTF-8 text (NUL between: no path holds one), after its
// length in bytes and the names' count, so that the part is read alone (the event state's first:
// its event files, which `aula build` stats as it starts, cli/early-stats.ts) and, in shared
// memory, handed to a thread as it is.

/** The two counts before the names: their bytes, and the names. */
export const COUNTS = 8;

/** `count` names, `bytes` their text, NUL between (in shared memory where a thread reads them). */
export type Names = { bytes: Uint8Array; count: number };

/** The part for `names`, in two pieces (the counts, the text). */
export const namesPart = (names: readonly string[]): Uint8Array[] => namesPartOf({ bytes: Buffer.from(names.join('\0')), count: names.length });

/** The part for names whose text is made already (the counts, the text as it is). */
export function namesPartOf({ bytes, count }: Names): Uint8Array[] {
  const counts = Buffer.allocUnsafe(COUNTS);
  counts.writeUInt32LE(bytes.byteLength, 0);
  counts.writeUInt32LE(count, 4);
  return [counts, bytes];
}

/** The names of `names`' text (at most its count). */
export const namesIn = ({ bytes, count }: Names): string[] => (count === 0 ? [] : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\0', count));

/** `names`' text in shared memory (a thread reads it where it is). */
export function sharedNames(names: readonly string[]): Names {
  const text = Buffer.from(names.join('\0'));
  const bytes = new Uint8Array(new SharedArrayBuffer(text.length));
  bytes.set(text);
  return { bytes, count: names.length };
}
