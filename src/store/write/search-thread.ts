// The thread module that makes data/search.bin of a list's rows (searchIndexOf), started by
// searchIndexBeside while the calling thread makes the columns and the calendar of the same rows.
// The rows come as they are (row-bytes.ts keeps them in shared memory): not copied, not decoded
// into strings first; the index is a function of the rows' bytes, the same wherever it is made.
import { EventRows } from '../format/event-rows.ts';
import { runOnThread, threadModule } from '../../util/start-thread.ts';
import { searchIndexOf } from './search-index.ts';

/** The rows as EventRows holds them: the lines' bytes and the offsets (views of shared memory, where they are). */
export interface SearchJob {
  lines: Uint8Array;
  starts: Uint32Array | Uint16Array;
}

export function answer({ lines, starts }: SearchJob): Uint8Array {
  return searchIndexOf(new EventRows(Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength), starts));
}

/** data/search.bin of `rows`, made on a thread of its own (the thread then ends). */
export function searchIndexBeside(rows: EventRows): Promise<Uint8Array> {
  const job: SearchJob = { lines: rows.lineBytes, starts: rows.starts };
  return runOnThread<Uint8Array>(threadModule(import.meta.url, 'search-thread'), job, "the search index's thread stopped");
}
