// The previous build's event data, for the build over the prior to take the rows that stay from it
// (store/write/event-data.ts): read from the previous dist where the ledger proves every file read,
// the build the event state describes (state/previous-build.ts), same options, same zone; or, for
// `aula dev`, from its last make's files in memory.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { readAllAt } from '../../util/positional-io.ts';
import { readFileInto } from '../../util/read-into.ts';
import { CACHE_FILE_MOST, readCacheFile } from '../cache/cache-file.ts';
import { calendarPartFiles, DATA_FILES, eventOffsetsFiles, eventPartFiles } from '../../store/format/dist-paths.ts';
import { COLUMN_FILES } from '../../store/format/column-files.ts';
import { FIELD_COUNT } from '../../store/format/event-rows.ts';
import { calendarPartReader } from '../../store/read/calendar-file.ts';
import { readColumns } from '../../store/read/column-files.ts';
import { memorySource } from '../../store/read/dist-source.ts';
import { columnValuesOfTable } from '../../store/write/column-files.ts';
import type { EventTable } from '../../store/format/event-table.ts';
import type { PreviousData } from '../../store/write/event-data.ts';
import { changedWhileBuilt, type DistLedger } from '../ledger/dist-ledger.ts';
import type { PreviousBuild } from '../state/previous-build.ts';
import type { Manifest } from '../../store/format/manifest.ts';

const STRIDE = FIELD_COUNT + 1;

/**
 * The previous dist's event data, every file proven by the ledger to be what its manifest lists
 * (else null). A file is read only when asked for (one linked as it is never is), and proven again
 * once read: a column changed since fails the build; an offsets file changed since makes this null.
 */
export function previousFiles({ previous, state, ledger }: PreviousBuild, out: string): PreviousData | null {
  if (previous.counts.events !== state.rows.id.length) return null;
  const parts = eventPartFiles(previous);
  const proven = (rel: string) => !!previous.files[rel] && ledger.wouldReuse(rel, previous.files[rel].sha256, null);
  if (![DATA_FILES.search, ...COLUMN_FILES, ...parts, ...eventOffsetsFiles(previous), ...calendarPartFiles(previous)].every(proven)) return null;
  const file = (rel: string) => provenFile(out, ledger, rel, previous.files[rel].sha256);
  return previousData(previous, file, (bounds) => (begin, end, into, at) => partsRange(parts.map((rel) => join(out, rel)), bounds, begin, end, into, at), (rel, into) => readFileInto(join(out, rel), into) && !!proven(rel));
}

/** The previous dist's `rel`, proven by the ledger to be `sha` once read (no link followed, no FIFO waited on): one changed or gone since the load fails the build. */
export function provenFile(out: string, ledger: DistLedger, rel: string, sha: string): Buffer {
  const bytes = readCacheFile(join(out, rel), CACHE_FILE_MOST, true);
  if (bytes === null || !ledger.wouldReuse(rel, sha, null)) throw changedWhileBuilt(rel);
  return bytes;
}

/**
 * The event data of the dist `previous` describes, its files read through `file` (the columns
 * when first used, each once; the offsets through `fileInto` where given, into their place), the
 * parts' bytes through `bytes` (given where each part starts); null where its offsets do not fit.
 */
export function previousData(previous: Manifest, file: (rel: string) => Uint8Array, bytes: (bounds: readonly number[]) => PreviousData['bytes'], fileInto?: (rel: string, into: Uint8Array) => boolean): PreviousData | null {
  const n = previous.counts.events;
  const bounds = [0];
  for (const rel of eventPartFiles(previous)) bounds.push(bounds[bounds.length - 1] + previous.files[rel].bytes);
  // each part's offsets, end to end
  const starts = new Uint32Array(n * STRIDE);
  let at = 0;
  const into = fileInto ?? ((rel: string, place: Uint8Array) => {
    const read = file(rel);
    if (read.byteLength !== place.byteLength) return false;
    place.set(read);
    return true;
  });
  for (const rel of eventOffsetsFiles(previous)) {
    const length = previous.files[rel].bytes;
    if (length % 4 !== 0 || at + length / 4 > starts.length || !into(rel, new Uint8Array(starts.buffer, at * 4, length))) return null;
    at += length / 4;
  }
  if (at !== starts.length) return null;
  let rowBytes = Math.max(0, n - 1);
  for (let row = 0; row < n; row++) rowBytes += starts[row * STRIDE + FIELD_COUNT];
  if (rowBytes !== bounds[bounds.length - 1]) return null;
  // the columns read when first used (rows changed in place read only theirs), each file once, for the table and its splice alike; per need: a string is decoded when first read, and a splice reads few
  const columnFiles = new Map<string, Uint8Array>();
  const columnFile = (rel: string) => (!COLUMN_FILES.includes(rel) ? file(rel) : (columnFiles.get(rel) ?? columnFiles.set(rel, file(rel)).get(rel)!));
  let read: EventTable | null = null;
  const table = () => (read ??= readColumns({ ...memorySource(columnFile, 'previous dist'), perNeed: true }, n, true));
  return { starts, parts: previous.event_parts, bounds, table, values: () => columnValuesOfTable(table()), file: columnFile, calendar: calendarPartReader(file, previous.event_parts), bytes: bytes(bounds) };
}

/** Bytes [begin, end) of the files `paths` end to end (`bounds`: where each starts, then their length), read into `into` at `place` where given. */
function partsRange(paths: readonly string[], bounds: readonly number[], begin: number, end: number, into?: Uint8Array, place = 0): Uint8Array {
  const out = into ? Buffer.from(into.buffer, into.byteOffset + place, end - begin) : Buffer.allocUnsafe(end - begin);
  for (let p = 0, at = begin; at < end; p++) {
    if (bounds[p + 1] <= at) continue;
    const to = Math.min(end, bounds[p + 1]);
    const fd = openSync(paths[p], 'r');
    try {
      readAllAt(fd, out, at - begin, to - at, at - bounds[p]);
    } finally {
      closeSync(fd);
    }
    at = to;
  }
  return out;
}
