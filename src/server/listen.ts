// Binding the port, with the reasons it fails said in one line rather than a stack trace.
import type { Server } from 'node:http';

export class ServeError extends Error {
  override name = 'ServeError';
}

const REASONS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'the address is not one of this machine',
  ENOTFOUND: 'the host name does not resolve',
};

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((ok, fail) => {
    const onError = (e: NodeJS.ErrnoException) => {
      const reason = REASONS[e.code ?? ''] ?? e.message;
      fail(new ServeError(`cannot listen on ${host}:${port}: ${reason}${e.code ? ` (${e.code})` : ''}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      ok();
    });
  });
}

/**
 * A warning when the links the answers carry (the base URL's origin) point somewhere else than
 * where this server listens — right behind a proxy for that origin, a surprise otherwise; none
 * when `given` (the base URL is --base-url's).
 */
export function originWarning(baseUrl: string, listening: string, given = false): string | null {
  let base: URL;
  let here: URL;
  try {
    base = new URL(baseUrl);
    here = new URL(listening);
  } catch {
    return null;
  }
  // (named by --base-url: the links are where the user asked them to point, behind a proxy)
  if (given || base.origin === here.origin) return null;
  // a wildcard bind is reachable under any of the machine's names on that port
  const wildcard = here.hostname === '0.0.0.0' || here.hostname === '[::]';
  if (wildcard && base.protocol === 'http:' && (base.port || '80') === here.port) return null;
  return `warning: answers link to ${base.origin} (the base URL), but this server listens on ${here.origin}; fine behind a proxy for ${base.origin}, otherwise start it with --base-url`;
}
