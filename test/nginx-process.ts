// A real nginx for the tests that put one in front of aula servers: found on the machine,
// started in the foreground on loopback with its pid, logs and temp files in a test folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';

export { freePort } from './helpers.ts';

export function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

export const NGINX_MISSING = 'nginx not installed: apt-get install nginx-light (or nginx)';

export interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** as sent, one [name, value] per header line (node joins repeated lines in `headers`) */
  lines: [string, string][];
  body: Buffer;
}

/** node:http rather than fetch: fetch adds Accept-Encoding and decodes, hiding what was sent. */
export function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const lines: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
        ok({ status: res.statusCode ?? 0, headers: res.headers, lines, body: Buffer.concat(chunks) });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/** Everything else nginx needs outside the config, on its command line: pid, error log, user. */
export function nginxArgs(dir: string): string[] {
  const globals = `daemon off; pid ${dir}/nginx.pid;${process.getuid?.() === 0 ? ' user root;' : ''}`;
  return ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', globals];
}

/** Checks the config with `nginx -t`; the error text when it is refused. */
export function nginxTest(nginx: string, dir: string): string | null {
  const test = spawnSync(nginx, ['-t', ...nginxArgs(dir)], { encoding: 'utf8' });
  return test.status === 0 ? null : test.stderr;
}

/** Starts nginx in the foreground and resolves once it answers; rejects with its error log if it dies. */
export async function startNginx(nginx: string, dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(nginx, nginxArgs(dir), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  // a safety net: a busy machine may take long to start it
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exited) {
      const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
      throw new Error(`nginx exited: ${output}${log}`);
    }
    try {
      await get(`http://127.0.0.1:${port}/nginx-ready`);
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not answer within 120 s: ${output}`);
}

/** Stops a child process with `signal`, SIGKILL after 5 s. */
export function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGQUIT'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      ok();
    });
    child.kill(signal);
  });
}
