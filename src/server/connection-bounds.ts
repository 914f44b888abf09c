// Per-connection bounds on pipelined requests. node's parser hands over every request of a
// received chunk at once; computed eagerly, 200 pipelined `limit=1000` requests from a client that
// never reads pin 200 large answers to its socket. Here at most MAX_ANSWERING answers per
// connection exist at a time: later requests wait unanswered (cheap objects, no body), the socket
// stops being read while any wait, and a closed connection drops what was waiting uncomputed.
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

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Connection {
  answering: number;
  waiting: [IncomingMessage, ServerResponse][];
  /** paused here (node pauses sockets for its own reasons too; those it resumes itself) */
  paused: boolean;
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
}

export function connectionBounds(handle: Handler, limits = { answering: MAX_ANSWERING, waiting: MAX_WAITING }): ConnectionBounds {
  const connections = new Map<Socket, Connection>();
  let idle: (socket: Socket) => void = () => {};

  const forget = (socket: Socket) => {
    const connection = connections.get(socket);
    if (!connection) return;
    connections.delete(socket);
    // nobody will read these: let them go without computing anything
    for (const [, res] of connection.waiting) res.destroy();
    connection.waiting.length = 0;
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
    res.once('close', () => {
      connection.answering--;
      if (connections.get(socket) !== connection) return;
      next(socket, connection);
      if (connection.answering === 0 && connection.waiting.length === 0) idle(socket);
    });
  };

  const next = (socket: Socket, connection: Connection) => {
    while (connection.answering < limits.answering && connection.waiting.length > 0) {
      const [req, res] = connection.waiting.shift()!;
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
    connection.waiting.push([req, res]);
    connection.paused = true;
    socket.pause();
  };

  return {
    track(socket) {
      connections.set(socket, { answering: 0, waiting: [], paused: false });
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
  };
}
