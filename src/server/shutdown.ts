// Draining on shutdown: stop accepting, let every owed answer go out (also one handed to node
// but not yet to the kernel, a large answer to a slow reader), close idle connections at once
// and cut the rest after a grace period.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface Drain {
  /** true once close() was called: answers from then on close their connection */
  readonly closing: boolean;
  /** closes the server; resolves when every connection is gone */
  close(graceMs: number): Promise<void>;
}

export function drainOnClose(server: Server, busy: (socket: Socket) => boolean): Drain {
  const connections = new Set<Socket>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // server.close() calls this, and node's own version also cuts connections whose response has
  // been ended but not yet flushed: close only the idle ones.
  server.closeIdleConnections = () => {
    for (const socket of connections) if (!busy(socket)) socket.destroy();
  };
  return {
    get closing() {
      return closing;
    },
    close: (graceMs) =>
      new Promise<void>((ok) => {
        closing = true;
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          ok();
        });
        server.closeIdleConnections();
      }),
  };
}
