// The event columns' texts, decoded after the server has begun answering rather than before. A
// column's strings are one UTF-8 text in its file (store/format/string-table.ts), and decoding the
// long ones (the teasers) is the largest single piece of a start. Until its list is decoded a
// string is decoded alone when an answer asks for it (substring lookups search the UTF-8 without
// decoding), so nothing waits for this. One list is decoded per turn of the event loop: the
// longest, the teasers' values, blocks it for as long as decoding it at load would.
import type { Dataset } from '../query/dataset.ts';
import { textDecodes } from '../store/read/column-files.ts';

/**
 * A served dist's first answers (a health check, the first visitor) come before this, so the
 * decoding starts a moment after the dataset is served.
 */
const AFTER_MS = 1_000;

/** Decodes `dataset`'s column texts a list per turn, from AFTER_MS on; `log` names a list that does not fit its text. Returns a stop. */
export function decodeTextsSoon(dataset: Dataset, log: (line: string) => void): () => void {
  let stopped = false;
  let lists: (() => void)[] = [];
  const next = () => {
    const decode = lists.shift();
    if (stopped || decode === undefined) return;
    try {
      decode();
    } catch (e) {
      // (its strings are then decoded alone, each checked: an answer that reads one that does not fit names the file)
      log((e as Error).message);
    }
    setImmediate(next).unref();
  };
  const start = setTimeout(() => {
    lists = textDecodes(dataset.events.table);
    next();
  }, AFTER_MS);
  start.unref();
  return () => {
    stopped = true;
    clearTimeout(start);
  };
}
