import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runOnThread, ThreadPool, threadModule } from './start-thread.ts';

const fixture = threadModule(import.meta.url, 'start-thread-fixture');
type Answer = { answer: number; mainThread: boolean; threadId: number; told: unknown };
const pool = (options: ConstructorParameters<typeof ThreadPool>[1] = {}) => new ThreadPool<number | string | { tell: unknown }, Answer>(fixture, options);
const onWorker = () => (process.env.AULA_THREADS = 'worker');

afterEach(() => {
  delete process.env.AULA_THREADS;
});

describe('ThreadPool', () => {
  it('from the sources, answers on this thread, in order', async () => {
    const threads = pool();
    const answers = await Promise.all([threads.ask(1), threads.ask(5)]);
    expect(answers.map((a) => [a.answer, a.mainThread])).toEqual([[2, true], [6, true]]);
    await threads.end();
  });

  it('posts a thread at most `ahead` messages at once, the rest when it answers', async () => {
    const inFlight = (p: ThreadPool<unknown, unknown>) => (p as unknown as { running: { waiting: unknown[] }[] }).running.map((r) => r.waiting.length);
    for (const [ahead, posted] of [[1, [1]], [undefined, [3]]] as const) {
      const threads = pool({ size: 1, ahead });
      const asked = [1, 2, 3].map((n) => threads.ask(n));
      expect(inFlight(threads)).toEqual(posted);
      expect((await Promise.all(asked)).map((a) => a.answer)).toEqual([2, 3, 4]);
      await threads.end();
    }
  });

  it('on worker threads under AULA_THREADS=worker, the TypeScript module loaded there: at most `size`, `ahead` messages each', async () => {
    onWorker();
    const threads = pool({ size: 2, ahead: 1 });
    const answers = await Promise.all([41, 1, 2, 3].map((n) => threads.ask(n)));
    expect(answers.map((a) => [a.answer, a.mainThread])).toEqual([[42, false], [2, false], [3, false], [4, false]]);
    // two threads, each given one message at a time: the first two went to one each
    expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
    expect(answers[0].threadId).not.toBe(answers[1].threadId);
    await threads.end();
  });

  it('tells every thread, those started later too, before what is asked of it', async () => {
    onWorker();
    const threads = pool({ size: 2 });
    threads.tell({ tell: 'context' });
    const first = await threads.ask(1);
    const [a, b] = await Promise.all([threads.ask(2), threads.ask(3)]);
    expect([first.told, a.told, b.told]).toEqual(['context', 'context', 'context']);
    expect(a.threadId).not.toBe(b.threadId);
    await threads.end();
  });

  it('ends idle threads (endIdle) and threads that answer once (once), and starts new ones when asked again', async () => {
    onWorker();
    for (const options of [{ endIdle: true }, { once: true }]) {
      const threads = pool(options);
      const first = await threads.ask(1);
      const second = await threads.ask(2);
      expect(second.answer).toBe(3);
      expect(second.threadId).not.toBe(first.threadId);
      await threads.end();
    }
    const kept = pool();
    expect((await kept.ask(1)).threadId).toBe((await kept.ask(2)).threadId);
    await kept.end();
    // a thread that answers once would answer a told message and end before the ask
    expect(() => pool({ once: true }).tell({ tell: 'context' })).toThrow(/told nothing/);
  });

  it('fails when a thread ends before it answers: that ask and every later one reject', async () => {
    onWorker();
    const threads = pool({ stopped: 'the fixture stopped' });
    await expect(threads.ask('exit')).rejects.toThrow(/^the fixture stopped$/);
    await expect(threads.ask(1)).rejects.toThrow(/^the fixture stopped$/);
  });

  it('rejects the asks not answered with the error end() is given', async () => {
    const threads = pool();
    const asked = threads.ask(1);
    const ended = threads.end(new Error('cancelled'));
    await expect(asked).rejects.toThrow(/^cancelled$/);
    await ended;
  });
});

describe('runOnThread', () => {
  it('runs one message to its answer, on a worker under AULA_THREADS=worker', async () => {
    expect(await runOnThread(fixture, 9, 'stopped')).toMatchObject({ answer: 10, mainThread: true });
    onWorker();
    expect(await runOnThread(fixture, 9, 'stopped')).toMatchObject({ answer: 10, mainThread: false });
  });

  it('rejects with what the module threw, its code and paths kept, on this thread and on a worker', async () => {
    const missing = join(tmpdir(), `aula-start-thread-${process.pid}-missing`);
    const fields = { code: 'ENOENT', syscall: 'link', path: missing, dest: `${missing}-link` };
    await expect(runOnThread(fixture, missing, 'stopped')).rejects.toMatchObject(fields);
    onWorker();
    const there = runOnThread(fixture, missing, 'stopped');
    await expect(there).rejects.toBeInstanceOf(Error);
    await expect(there).rejects.toMatchObject(fields);
  });
});
