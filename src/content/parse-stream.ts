// Files' parses as one v8 serializer stream: how a parse thread hands a batch of them to the
// build's main thread (pipeline/load/parse-batch.ts), written once into one buffer and read with
// one deserializer, not one buffer and one deserializer per file. A record goes without its
// file's name, which the reader knows: a list file's name would be written and read per record.
import { DefaultDeserializer, DefaultSerializer } from 'node:v8';
import type { Problem } from './problems.ts';
import type { Parsed } from './records.ts';
import { append } from '../util/append.ts';

/** A file's parse as the stream holds it: each record's value and item, and the problems. */
interface SentParse {
  values: unknown[];
  items: (number | null)[];
  problems: Problem[];
}

/** Parses written one after another (DefaultSerializer: what v8.serialize uses; a parse is plain data). */
export class ParseStream {
  private readonly stream = new DefaultSerializer();

  constructor() {
    this.stream.writeHeader();
  }

  /** `parsed`, its records' values sent as `values` (one each, in order). */
  write({ records, problems }: Parsed<unknown>, values: unknown[]): void {
    this.stream.writeValue({ values, items: records.map((r) => r.item), problems } satisfies SentParse);
  }

  /** The stream, in a buffer of its own (it can be transferred); the stream is done. */
  release(): Buffer {
    return this.stream.releaseBuffer();
  }
}

/** Reads a ParseStream's parses in order: each call the next, its records given `file`. */
export function parseReader(bytes: Uint8Array): (file: string) => Parsed<unknown> {
  const stream = new DefaultDeserializer(bytes);
  stream.readHeader();
  return (file) => {
    const { values, items, problems } = stream.readValue() as SentParse;
    return { records: values.map((value, k) => ({ value, file, item: items[k] })), problems };
  };
}

/** The records' values of parse streams (each of `count` files' parses), in order: no record is made of them. */
export function parsedValues(parses: readonly { bytes: Uint8Array; count: number }[]): unknown[] {
  const values: unknown[] = [];
  for (const { bytes, count } of parses) {
    const stream = new DefaultDeserializer(bytes);
    stream.readHeader();
    for (let i = 0; i < count; i++) append(values, (stream.readValue() as SentParse).values);
  }
  return values;
}

/** The parses of `files` (each read, or its problem) whose parses without a problem are streamed in `bytes`, in order. */
export function streamedParses(files: readonly ({ problem: Problem } | object)[], bytes: Uint8Array, names: readonly string[]): Parsed<unknown>[] {
  const next = parseReader(bytes);
  return files.map((f, j) => ('problem' in f ? { records: [], problems: [f.problem as Problem] } : next(names[j])));
}
