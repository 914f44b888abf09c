import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answerWorkers } from './primary-rows-check.ts';

const LIB = fileURLToPath(new URL('../../lib/server/primary-rows-check.js', import.meta.url));

/** What a send to `child` ended in: the callback's error, or an 'error' event nobody asked for. */
function outcome(child: ChildProcess): { asker: Parameters<ReturnType<typeof answerWorkers>>[0]; ended: Promise<string> } {
  let settle!: (how: string) => void;
  const ended = new Promise<string>((resolve) => (settle = resolve));
  child.once('error', (e: NodeJS.ErrnoException) => settle(`error event ${e.code}`));
  return {
    asker: {
      // without a callback the send reports its failure as the child's 'error' event
      send: (message, callback) =>
        typeof callback !== 'function'
          ? child.send(message)
          : child.send(message, (error) => {
              callback(error);
              settle(error ? `callback ${(error as NodeJS.ErrnoException).code}` : 'sent');
            }),
    },
    ended,
  };
}

describe('the primary answering the workers about the rows', () => {
  it('answers a worker gone before the check ended without an error event (which ends the primary)', async () => {
    const child = spawn(process.execPath, ['-e', "process.on('message', () => {})"], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    child.kill('SIGKILL');
    await once(child, 'exit');
    const { asker, ended } = outcome(child);
    answerWorkers(Promise.resolve({ key: 'k', files: [] }))(asker, { aula: 'rows?' });
    expect(await ended).toMatch(/^callback /);
  });

  it('lets a worker whose primary is gone check for itself', async () => {
    // a worker that lost its primary before asking: the answer is null, and it does not crash
    const script = `
      const { askPrimary } = await import(${JSON.stringify(LIB)});
      process.disconnect();
      process.on('uncaughtException', (e) => { console.log('uncaught ' + e.code); process.exit(2); });
      console.log('answer ' + JSON.stringify(await askPrimary()));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b));
    const [code] = await once(child, 'exit');
    expect(out.trim()).toBe('answer null');
    expect(code).toBe(0);
  });
});
