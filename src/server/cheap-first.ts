// Cheap requests first. node answers requests in the order their sockets are read, each to its
// end on the one event loop: two clients sending requests near the work limit back to back keep
// the loop busy with them, and a cheap request read meanwhile waits behind any number of them.
// Here a request whose shape is known to be expensive (request-costs.ts) is not answered where
// it is read but queued, and the queue is drained once per turn of the event loop (setImmediate,
// after the turn's I/O): every cheap request read in a turn is answered before the next
// expensive ones, so a cheap request waits for at most one turn's share of expensive work.
//
// A turn's share is counted in the work the core counts (units), not in requests: queued answers
// are made until they have counted TURN_UNITS between them (at least one, so an answer near the
// work limit is one per turn). Answers of a shape only somewhat expensive are then made many to
// a turn instead of one, and none waits for dozens of turns behind the others of its shape.
//
// node accepts one new connection per turn. While connections arrive (a turn accepted one),
// the next expensive answer waits a turn, up to MAX_YIELDS turns in a row: fifty clients
// connecting at once are accepted in fifty short turns, not behind fifty expensive answers, and
// a flood of connections delays the queue by a bounded number of turns, never stops it.

/** work (units) the queued answers of one turn may count between them before the rest wait a turn */
export const TURN_UNITS = 2_000_000;

/** turns in a row an expensive answer waits while connections are being accepted */
export const MAX_YIELDS = 64;

export interface CheapFirst {
  /** runs `answer` after the cheap requests of this turn, up to TURN_UNITS of expensive work per turn; `answer` returns the units it counted */
  later(answer: () => number): void;
  /** the server accepted a connection (more may be waiting to be accepted, one per turn) */
  connected(): void;
  /** expensive answers waiting */
  readonly waiting: number;
}

export function cheapFirst(maxYields = MAX_YIELDS, turnUnits = TURN_UNITS): CheapFirst {
  const queue: (() => number)[] = [];
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
    // the next turn first reads what arrived meanwhile and answers it
    let spent = 0;
    try {
      while (head < queue.length && spent < turnUnits) {
        const answer = queue[head];
        queue[head++] = undefined!;
        if (head === queue.length) queue.length = head = 0;
        spent += answer();
      }
    } finally {
      // (an answer that throws leaves the rest of the queue for the next turn, not for the next request)
      if (head < queue.length) schedule();
    }
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
