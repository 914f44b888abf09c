import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runOnThread, startThread, threadModule } from './start-thread.ts';

const fixture = threadModule(import.meta.url, 'start-thread-fixture');
const answers = (thread: ReturnType<typeof startThread>, n: number) =>
  new Promise<unknown[]>((resolve, reject) => {
    const got: unknown[] = [];
    thread.on('message', (a: unknown) => {
      got.push(a);
      if (got.length === n) resolve(got);
    });
    thread.on('error', reject);
  });

afterEach(() => {
  delete process.env.AULA_THREADS;
});

describe('startThread', () => {
  it('from the sources, answers on this thread, in order, after a turn', async () => {
    const thread = startThread(fixture);
    const got = answers(thread, 2);
    thread.postMessage(1);
    thread.postMessage(5);
    expect(await got).toEqual([{ answer: 2, mainThread: true }, { answer: 6, mainThread: true }]);
    await thread.terminate();
  });

  it('on a worker thread under AULA_THREADS=worker, the TypeScript module loaded there', async () => {
    process.env.AULA_THREADS = 'worker';
    const thread = startThread(fixture);
    const got = answers(thread, 2);
    thread.postMessage(41);
    thread.postMessage(1);
    expect(await got).toEqual([{ answer: 42, mainThread: false }, { answer: 2, mainThread: false }]);
    await thread.terminate();
  });

  it('ends a thread whose module answers once by itself, its answer heard before its end', async () => {
    const once = threadModule(import.meta.url, 'start-thread-once-fixture');
    process.env.AULA_THREADS = 'worker';
    const thread = startThread(once);
    const heard: unknown[] = [];
    const ended = new Promise<void>((resolve) => {
      thread.on('message', (a: unknown) => heard.push(a));
      thread.on('exit', (code: number) => {
        heard.push(`exit ${code}`);
        resolve();
      });
    });
    thread.postMessage(1);
    // never terminated: it ends by itself
    await ended;
    expect(heard).toEqual([2, 'exit 0']);
    // and a single run of it resolves with the answer, not with "stopped"
    expect(await runOnThread(once, 7, 'stopped')).toBe(8);
  });

  it('runs one message to its answer, on a worker under AULA_THREADS=worker', async () => {
    expect(await runOnThread(fixture, 9, 'stopped')).toEqual({ answer: 10, mainThread: true });
    process.env.AULA_THREADS = 'worker';
    expect(await runOnThread(fixture, 9, 'stopped')).toEqual({ answer: 10, mainThread: false });
  });

  it('rejects with what the module threw, its code and paths kept, on this thread and on a worker', async () => {
    const missing = join(tmpdir(), `aula-start-thread-${process.pid}-missing`);
    const fields = { code: 'ENOENT', syscall: 'link', path: missing, dest: `${missing}-link` };
    await expect(runOnThread(fixture, missing, 'stopped')).rejects.toMatchObject(fields);
    process.env.AULA_THREADS = 'worker';
    const onWorker = runOnThread(fixture, missing, 'stopped');
    await expect(onWorker).rejects.toBeInstanceOf(Error);
    await expect(onWorker).rejects.toMatchObject(fields);
  });
});
