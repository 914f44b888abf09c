// Bounds on what clients that do not read can pin. node's parser hands over every request of a
// received chunk at once; computed eagerly, 200 pipelined `limit=1000` requests from a client that
// never reads pin 200 large answers to its socket. Here at most MAX_ANSWERING answers per
// connection exist at a time: later requests wait unanswered (cheap objects, no body), the socket
// stops being read while any wait, and a closed connection drops what was waiting uncomputed.
// Across connections, what clients that do not read pin is bounded by MOST_HELD: the answers'
// bytes not yet taken by the kernel, and the requests waiting (each counted at WAITING_BYTES plus
// HEADER_FIELD_BYTES and the characters of each header name and value: a parsed request and the
// response node made for it stay in memory until their turn). Past it the connection holding the most is cut: many connections that stop reading
// would otherwise hold a few answers and a thousand waiting requests each, without limit in all.
// The answers' bytes are looked at when an answer is written (where the handler returns, and again
// when an answer it left for later is ended), the waiting requests' when one is put to wait.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** answers computed but not yet flushed, per connection, before further requests wait */
export const MAX_ANSWERING = 4;
/**
 * Requests allowed to wait on one connection. node pauses the socket only after the chunk it
 * is parsing, so one 64 KB chunk of tiny requests can still arrive at once; beyond this the
 * client is not a client and the connection is cut.
 */
export const MAX_WAITING = 1024;
/** bytes of answers not yet sent and what waiting requests count, over every connection, before the one holding the most is cut */
export const MOST_HELD = 128 * 1024 * 1024;
/**
 * What one waiting request counts toward MOST_HELD besides its head's bytes: node's request and
 * response objects with their header lists and parser state (about 1.3 KB of heap measured,
 * rounded up so the bound holds memory rather than only bytes on the wire).
 */
export const WAITING_BYTES = 2048;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Connection {
  answering: number;
  waiting: [IncomingMessage, ServerResponse, number][];
  /** what the waiting requests count toward the bound (waitingCost each) */
  waitingBytes: number;
  /** paused here (node pauses sockets for its own reasons too; those it resumes itself) */
  paused: boolean;
  /** answers not yet sent whole: a pipelined one waits in its own buffer until those before it are sent */
  unsent: Set<ServerResponse>;
}

/** Bytes of `connection`'s answers not yet taken by the kernel (an answer on the socket counts the socket's buffer). */
function unsentBytes(connection: Connection): number {
  let bytes = 0;
  for (const res of connection.unsent) bytes += res.writableLength;
  return bytes;
}

/**
 * What each of a request's header names and values counts besides its characters: node keeps
 * each as a string in the request's header list (about 55 bytes of heap a header measured, with
 * 3,250 two-letter headers in a 16 KiB head).
 */
export const HEADER_FIELD_BYTES = 32;

/** What a waiting request counts toward the bound: its objects and its head's fields. */
function waitingCost(req: IncomingMessage): number {
  let bytes = WAITING_BYTES + req.url!.length;
  for (const field of req.rawHeaders) bytes += HEADER_FIELD_BYTES + field.length;
  return bytes;
}

export interface ConnectionBounds {
  /** starts tracking a new connection (until it closes) */
  track(socket: Socket): void;
  /** the request listener: answers now or when the connection's earlier answers have gone out */
  accept: Handler;
  /** whether the socket still owes a client an answer (shutdown waits for those) */
  busy(socket: Socket): boolean;
  /** called when a socket's last owed answer has gone out */
  onIdle(listener: (socket: Socket) => void): void;
  /** open connections tracked: a closed one is never among them */
  readonly size: number;
  /** bytes of answers not yet taken by the kernel and what waiting requests count, over every connection */
  readonly held: number;
  /** connections cut for holding the most */
  readonly cut: number;
}

export function connectionBounds(handle: Handler, limits = { answering: MAX_ANSWERING, waiting: MAX_WAITING, held: MOST_HELD }): ConnectionBounds {
  const connections = new Map<Socket, Connection>();
  /** connections with an answer not yet sent whole: with `queued`, the only ones holding bytes */
  const holding = new Set<Socket>();
  /** connections with requests waiting */
  const queued = new Set<Socket>();
  /** what every waiting request counts, kept as they come and go */
  let waitingTotal = 0;
  /**
   * The unsent answers' bytes when last summed, plus the bytes of every answer written since: at
   * least what they are now (the kernel only takes bytes). The answers are summed over every
   * connection only when this and the waiting requests pass the bound, not at every answer or
   * waiting request: hundreds of pipelining connections would make each answer cost hundreds.
   */
  let unsentSeen = 0;
  let cuts = 0;
  let idle: (socket: Socket) => void = () => {};
  const held = () => {
    let total = 0;
    for (const socket of holding) total += unsentBytes(connections.get(socket)!);
    unsentSeen = total;
    return total + waitingTotal;
  };
  const holds = (socket: Socket) => {
    const connection = connections.get(socket)!;
    return unsentBytes(connection) + connection.waitingBytes;
  };
  /** cuts the connections holding the most until the rest hold at most `limits.held` */
  const bound = () => {
    if (unsentSeen + waitingTotal <= limits.held) return;
    let total = held();
    while (total > limits.held) {
      let most: Socket | undefined;
      let mostBytes = -1;
      for (const set of [holding, queued]) {
        for (const socket of set) {
          const bytes = holds(socket);
          if (bytes > mostBytes) [most, mostBytes] = [socket, bytes];
        }
      }
      total -= mostBytes;
      cuts++;
      forget(most!);
      most!.destroy();
    }
  };

  const forget = (socket: Socket) => {
    const connection = connections.get(socket);
    if (!connection) return;
    connections.delete(socket);
    holding.delete(socket);
    queued.delete(socket);
    // nobody will read these: let them go without computing anything
    for (const [, res] of connection.waiting) res.destroy();
    connection.waiting.length = 0;
    waitingTotal -= connection.waitingBytes;
    connection.waitingBytes = 0;
  };

  const start = (socket: Socket, connection: Connection, req: IncomingMessage, res: ServerResponse) => {
    connection.answering++;
    handle(req, res);
    // Answered and every byte already taken by the kernel (the usual case for a synchronous
    // answer): it pins nothing, so it is not counted, and costs no listener per request.
    // Starting waiting requests is left to next()'s loop or to the close of a slow answer:
    // requests only wait while `answering` is at the limit, so while one is waiting, this
    // was started by next(), whose loop goes on.
    if (res.socket !== null && res.writableFinished) {
      connection.answering--;
      if (connection.answering === 0 && connection.waiting.length === 0) idle(socket);
      return;
    }
    connection.unsent.add(res);
    holding.add(socket);
    unsentSeen += res.writableLength;
    bound();
    // An answer written after the handler returned (an expensive one queued, a large one
    // compressed off the event loop) holds its bytes from when it is written: bounded then.
    if (!res.writableEnded) {
      const end = res.end;
      res.end = function (this: ServerResponse, ...args: unknown[]) {
        const ended = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
        if (holding.has(socket)) {
          unsentSeen += this.writableLength;
          bound();
        }
        return ended;
      } as ServerResponse['end'];
    }
    res.once('close', () => {
      connection.answering--;
      connection.unsent.delete(res);
      if (connection.unsent.size === 0) holding.delete(socket);
      if (connections.get(socket) !== connection) return;
      next(socket, connection);
      if (connection.answering === 0 && connection.waiting.length === 0) idle(socket);
    });
  };

  const next = (socket: Socket, connection: Connection) => {
    while (connection.answering < limits.answering && connection.waiting.length > 0) {
      const [req, res, bytes] = connection.waiting.shift()!;
      connection.waitingBytes -= bytes;
      waitingTotal -= bytes;
      if (connection.waiting.length === 0) queued.delete(socket);
      start(socket, connection, req, res);
    }
    if (connection.waiting.length === 0 && connection.paused) {
      connection.paused = false;
      if (!socket.destroyed) socket.resume();
    }
  };

  const accept: Handler = (req, res) => {
    const socket = req.socket;
    const connection = connections.get(socket);
    // a request parsed from a connection that has closed meanwhile: nobody reads its answer
    if (!connection || socket.destroyed) return void res.destroy();
    if (connection.answering < limits.answering) return start(socket, connection, req, res);
    if (connection.waiting.length >= limits.waiting) return void socket.destroy();
    const bytes = waitingCost(req);
    connection.waiting.push([req, res, bytes]);
    connection.waitingBytes += bytes;
    waitingTotal += bytes;
    queued.add(socket);
    connection.paused = true;
    socket.pause();
    bound();
  };

  return {
    track(socket) {
      connections.set(socket, { answering: 0, waiting: [], waitingBytes: 0, paused: false, unsent: new Set() });
      socket.once('close', () => forget(socket));
    },
    accept,
    busy(socket) {
      const connection = connections.get(socket);
      return connection !== undefined && (connection.answering > 0 || connection.waiting.length > 0);
    },
    onIdle: (listener) => void (idle = listener),
    get size() {
      return connections.size;
    },
    get held() {
      return held();
    },
    get cut() {
      return cuts;
    },
  };
}
