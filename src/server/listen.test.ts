import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen, originWarning, ServeError } from './listen.ts';

describe('listen', () => {
  it('a port in use is a ServeError in one line', async () => {
    const first = createServer();
    await listen(first, 0, '127.0.0.1');
    const port = (first.address() as { port: number }).port;
    try {
      await expect(listen(createServer(), port, '127.0.0.1')).rejects.toThrow(new ServeError(`cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`));
    } finally {
      first.close();
    }
  });
});

describe('originWarning', () => {
  it('is null when the base URL is where the server listens', () => {
    expect(originWarning('http://127.0.0.1:8000/api', 'http://127.0.0.1:8000')).toBeNull();
    expect(originWarning('http://example.org:8000', 'http://0.0.0.0:8000')).toBeNull();
  });
  it('names both otherwise', () => {
    expect(originWarning('https://events.example.org/api', 'http://127.0.0.1:8000')).toMatch(/https:\/\/events\.example\.org .*http:\/\/127\.0\.0\.1:8000.*otherwise start it with --base-url$/);
    // named by --base-url: where the user asked the links to point, not a surprise
    expect(originWarning('https://events.example.org/api', 'http://127.0.0.1:8000', true)).toBeNull();
  });
});
