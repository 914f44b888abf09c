// Cheap requests first. node answers requests in the order their sockets are read, each to its
// end on the one event loop: two clients sending requests near the work limit back to back keep
// the loop busy with them, and a cheap request read meanwhile waits behind any number of them.
// Here a request whose shape is known to be expensive (request-costs.ts) is not answered where
// it is read but queued, and the queue is drained one request per turn of the event loop
// (setImmediate, after the turn's I/O): every cheap request read in a turn is answered before
// the next expensive one, so a cheap request waits for at most the one expensive answer being
// made when it arrives.
//
// node accepts one new connection per turn. While connections arrive (a turn accepted one),
// the next expensive answer waits a turn, up to MAX_YIELDS turns in a row: fifty clients
// connecting at once are accepted in fifty short turns, not behind fifty expensive answers, and
// a flood of connections delays the queue by a bounded number of turns, never stops it.

/** turns in a row an expensive answer waits while connections are being accepted */
export const MAX_YIELDS = 64;

export interface CheapFirst {
  /** runs `answer` after the cheap requests of this turn, one expensive answer per turn */
  later(answer: () => void): void;
  /** the server accepted a connection (more may be waiting to be accepted, one per turn) */
  connected(): void;
  /** expensive answers waiting */
  readonly waiting: number;
}

export function cheapFirst(maxYields = MAX_YIELDS): CheapFirst {
  const queue: (() => void)[] = [];
  let head = 0;
  let scheduled = false;
  let accepted = false;
  let yields = 0;

  const drainOne = () => {
    scheduled = false;
    const connecting = accepted;
    accepted = false;
    if (connecting && yields < maxYields) {
      // a connection came in this turn: let the next turn accept the next one first
      yields++;
      schedule();
      return;
    }
    yields = 0;
    const answer = queue[head];
    queue[head++] = undefined!;
    if (head === queue.length) queue.length = head = 0;
    // the next turn first reads what arrived meanwhile and answers it
    if (head < queue.length) schedule();
    answer();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drainOne);
  };

  return {
    later(answer) {
      queue.push(answer);
      schedule();
    },
    connected() {
      accepted = true;
    },
    get waiting() {
      return queue.length - head;
    },
  };
}
