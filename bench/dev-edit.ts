// Issue 16 item 4, "an edit at 100k is served within 2 s": `aula dev` on the bench's content,
// one event's title saved, and the time until the dev server's detail answer for that event
// carries the new title (the watcher's debounce, the rebuild in memory and the swap included;
// dev writes dist/ behind it, so the edit is made while the first dist/ is still being written).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { frontMatterValue, setFrontMatter } from './content-edits.ts';
import { PRELOAD, sampleTree, type TreePeak } from './peak-rss.ts';
import { aulaEnv, freePort, httpGet, startServerProcess, stopTracked } from './processes.ts';

export type DevRun =
  | ({ available: true; file: string; startMs: number; editMs: number } & TreePeak)
  | { available: false; reason: string };

const HOST = '127.0.0.1';

export async function devEdit(options: {
  aula: string;
  root: string;
  contentDir: string;
  /** a Markdown event file, relative to contentDir; restored before returning */
  file: string;
  work: string;
  log: (line: string) => void;
  /** how long the edit may take to show before the run counts as failed */
  editTimeoutMs?: number;
}): Promise<DevRun> {
  const { aula, root, contentDir, file, work, log } = options;
  const path = join(contentDir, file);
  const original = readFileSync(path, 'utf8');
  const id = frontMatterValue(original, 'id');
  if (!id || !/^\d+$/.test(id)) return { available: false, reason: `no numeric id in ${file}` };
  const out = join(work, 'dev-out');
  const rusageFile = join(work, 'rusage', 'dev.jsonl');
  const port = await freePort(HOST);
  const detail = `http://${HOST}:${port}/v1/cms/event/${id}/`;
  const started = await startServerProcess(
    process.execPath,
    ['--import', PRELOAD, aula, 'dev', '--content', contentDir, '--out', out, '--port', String(port), '--host', HOST, '--cache', join(work, 'build-cache')],
    detail,
    { cwd: root, env: aulaEnv({ ...process.env, AULA_BENCH_RUSAGE: rusageFile }), timeoutMs: 900_000 },
  );
  if (!started.ok) return { available: false, reason: `aula dev did not answer: ${started.message.split('\n')[0]}` };
  // started after the first answer: VmHWM keeps the first build's peak, and the preload reports at exit
  const sampler = sampleTree(started.server.child.pid!, rusageFile);
  log(`aula dev answering after ${(started.coldStartMs / 1000).toFixed(2)} s`);
  try {
    const title = `Bench dev edit ${Date.now()}`;
    writeFileSync(path, setFrontMatter(original, 'title', JSON.stringify(title)));
    const t0 = performance.now();
    // generous: a slow rebuild is a figure to report (against the 2 s target), not a failure
    const limit = options.editTimeoutMs ?? 600_000;
    let last = '';
    while (performance.now() - t0 < limit) {
      try {
        const answer = await httpGet(detail, 5000);
        last = `${answer.status}`;
        if (answer.status === 200 && answer.body.includes(title)) {
          const editMs = performance.now() - t0;
          log(`aula dev served the edit after ${(editMs / 1000).toFixed(2)} s`);
          writeFileSync(path, original);
          await stopTracked(started.server, 10_000);
          return { available: true, file, startMs: started.coldStartMs, editMs, ...sampler.stop() };
        }
      } catch (e) {
        last = e instanceof Error ? e.message : String(e);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return { available: false, reason: `the edit was not served within ${limit / 1000} s (last answer: ${last}): ${started.server.output().trim().split('\n').slice(-3).join(' / ')}` };
  } finally {
    writeFileSync(path, original);
    await stopTracked(started.server, 10_000);
    sampler.stop();
    rmSync(out, { recursive: true, force: true });
  }
}
