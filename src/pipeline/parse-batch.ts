// What a parse thread does with one batch of content files (parse-pool.ts): each file read (with
// its stat when the build keeps a cache), parsed by the loader's own parser, and its parse handed
// back serialized, with the cache key of its text and the payload's SHA-256, so the build's main
// thread neither reads, hashes, parses nor serializes it (it adopts the bytes, build-cache.ts).
//
// Answer layout: the payloads end to end in `bytes` (one transferable buffer per batch, not one
// message per file), their SHA-256s end to end in `sums`; per file either its problem or its
// key, stat and where its payload ends.
import { createHash } from 'node:crypto';
import { serialize } from 'node:v8';
import { readContentFile } from '../content/files.ts';
import { parserOf, type ParserName } from '../content/load.ts';
import type { Problem } from '../content/problems.ts';
import { parseKey } from './build-cache.ts';
import { statText } from './stat-index.ts';

export interface ParseBatch {
  id: number;
  dir: string;
  kind: string;
  parser: ParserName;
  zone: string;
  files: string[];
  /** the full path as bytes of each file whose name is not UTF-8 (files.ts), else null */
  raw: (Buffer | null)[];
  /** the build keeps a cache: give each file's key, stat and payload checksum */
  keyed: boolean;
}

export type FileAnswer = { problem: Problem } | { end: number; key: string | null; stat: string | null };

export interface BatchAnswer {
  id: number;
  files: FileAnswer[];
  bytes: Uint8Array;
  /** 32 bytes per file with a payload, in order (empty when not keyed) */
  sums: Uint8Array;
}

export const SUM_BYTES = 32;

export function parseBatch(batch: ParseBatch): BatchAnswer {
  const parse = parserOf(batch.parser, batch.zone);
  const files: FileAnswer[] = [];
  const payloads: Buffer[] = [];
  let total = 0;
  batch.files.forEach((file, i) => {
    const read = readContentFile(batch.dir, file, batch.raw[i] ?? undefined, batch.keyed);
    if (!read.ok) {
      files.push({ problem: read.problem });
      return;
    }
    const payload = serialize(parse(file, read.text));
    payloads.push(payload);
    total += payload.length;
    files.push({
      end: total,
      key: batch.keyed ? parseKey(batch.kind, file, read.text).toString('hex') : null,
      stat: read.stat ? statText(read.stat) : null,
    });
  });
  // fresh buffers of their own (never a slice of Node's shared pool): they are transferred
  const bytes = new Uint8Array(total);
  const sums = new Uint8Array(batch.keyed ? payloads.length * SUM_BYTES : 0);
  let at = 0;
  payloads.forEach((payload, i) => {
    bytes.set(payload, at);
    at += payload.length;
    if (batch.keyed) sums.set(createHash('sha256').update(payload).digest(), i * SUM_BYTES);
  });
  return { id: batch.id, files, bytes, sums };
}
