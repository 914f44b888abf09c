// A reader that goes away is not a failure of the command that wrote to it. `aula build | head -3`,
// a `tee` or log shipper that stops, a CI step whose log pipe closes: Node ignores SIGPIPE and
// turns the next write into an 'error' event on process.stdout; unheard, it would kill the build
// at its next progress line (a stack trace, no dist/) or stop `aula serve`. A command whose output
// nobody reads carries on, writing into the void.
//
// Any other write error (a full disk behind `> file`, EIO) means output was lost that somebody
// wanted: the command still finishes what it does (stopping a build part-way left its lock
// behind), then says so in one line and exits 1.
import type { Writable } from 'node:stream';

/** Errors that only say the stream's reader has gone (EPIPE), or that it was closed since. */
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Lets the command outlive the reader of `stream`; any other write error is reported on `report`
 * when the process exits, with exit code 1.
 */
export function tolerateClosedReader(stream: Writable, name: string, report: (line: string) => void): void {
  let lost: string | null = null;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== undefined && GONE.has(e.code)) return;
    if (lost !== null) return;
    lost = e.code ?? e.message;
    process.once('exit', () => {
      process.exitCode = 1;
      try {
        report(`aula: could not write to ${name} (${lost}): some of its output is lost`);
      } catch {
        // nowhere left to say it: the exit code does
      }
    });
  });
}
