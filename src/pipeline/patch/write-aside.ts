// A write handed to a libuv thread while this thread goes on: the new events.jsonl (~230 MB at
// 100k events) is written while the pages are answered. (Stats were tried the same way: 76k
// callbacks cost more than the parallel syscalls saved.)
import { close, open, write } from 'node:fs';

/** Writes `bytes` as the new file `path` on a libuv thread; rejects on any failure. */
export function writeAside(path: string, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    open(path, 'wx', (error, fd) => {
      if (error) return reject(error);
      const finish = (failure: Error | null) => close(fd, (closing) => (failure ?? closing ? reject(failure ?? closing) : resolve()));
      const from = (at: number) => {
        if (at >= bytes.byteLength) return finish(null);
        write(fd, bytes, at, bytes.byteLength - at, null, (failure, n) => (failure ? finish(failure) : from(at + n)));
      };
      from(0);
    });
  });
}
