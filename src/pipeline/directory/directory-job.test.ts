import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTUALLY, removeDir, tempDir } from '../../../test/helpers.ts';
import { directoryKeys, joinedKeys, parseDirectoryFile, type DirectoryParse } from '../../content/directory.ts';
import { ParseStream } from '../../content/parse-stream.ts';
import { compareDirectory } from '../../model/directory-order.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { buildAutocompleteFiles } from '../../store/write/autocomplete-files.ts';
import { buildMiniSearchFiles } from '../../store/write/minisearch/build.ts';
import { directoryOnPool, startDirectoryJob, type DirectoryJob, type DirectoryJobOptions } from './directory-job.ts';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeDir));

// large enough for minisearch.json to pass the 1 MB above which the worker compresses it too
const objects = syntheticDirectory(6000, 7);

/** A file's text (minisearch.json is made as UTF-8 bytes, the rest as text) */
const text = (content: string | Uint8Array | undefined) => (typeof content === 'string' || content === undefined ? content : Buffer.from(content).toString());

async function outputs(job: DirectoryJob) {
  return { ...(await job.files), compressed: await job.compressed };
}

/**
 * Runs `start` (which starts the job's worker) with node:worker_threads' Worker observed: resolves
 * `answered` once the first worker started posts its answer, after the job's own listener heard it.
 */
function watchingWorkers<T>(start: () => T): { job: T; answered: Promise<void> } {
  const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const Original = threads.Worker;
  let answer: () => void = () => {};
  const answered = new Promise<void>((ok) => (answer = ok));
  threads.Worker = class extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      super(...args);
      // (after the job's listener: those added in its constructor call run first)
      queueMicrotask(() => this.once('message', () => answer()));
    }
  };
  // what an ESM `import { Worker } from 'node:worker_threads'` sees, as the compiled job does
  syncBuiltinESMExports();
  try {
    return { job: start(), answered };
  } finally {
    threads.Worker = Original;
    syncBuiltinESMExports();
  }
}

describe('startDirectoryJob', () => {
  it('makes what the builders make, on a worker thread (compiled) as on this one', async () => {
    const expected: Record<string, string | Uint8Array> = { ...(await buildAutocompleteFiles(objects)), ...(await buildMiniSearchFiles(objects)) };
    const options: DirectoryJobOptions = { minisearch: true, compress: true };
    // vitest runs the .ts sources, whose thread modules answer on this thread: the compiled job starts workers
    const compiled = (await import(new URL('../../../lib/pipeline/directory/directory-job.js', import.meta.url).href)) as typeof import('./directory-job.ts');
    for (const job of [startDirectoryJob(objects, options), compiled.startDirectoryJob(objects, options)]) {
      const made = await outputs(job);
      // the browser modules are bundled from the sources (.ts) or prebundled from lib/ (.js): same
      // code, not the same formatting; the indexes are the same bytes
      const files = { ...made.autocomplete, ...made.minisearch };
      expect(Object.keys(files).sort()).toEqual(Object.keys(expected).sort());
      for (const name of ['index.json', 'minisearch.json']) expect(text(files[name])).toBe(text(expected[name]));
      const big = 'autocomplete/minisearch.json';
      expect([...made.compressed.keys()]).toEqual([big]);
      const twins = made.compressed.get(big)!;
      // (above 1 MB: gzip 5 compresses as well as 6 here, in about half the time)
      expect(twins).toMatchObject({ gzip: 5, brotli: 5 });
      expect(text(twins.content)).toBe(text(expected['minisearch.json']));
      expect(gunzipSync(twins.gz).toString()).toBe(text(expected['minisearch.json']));
      expect(brotliDecompressSync(twins.br).toString()).toBe(text(expected['minisearch.json']));
    }
  });

  it('keeps what the worker made in an unlinked scratch file until it is asked for: nothing is ever left in the temp folder', async () => {
    const compiled = (await import(new URL('../../../lib/pipeline/directory/directory-job.js', import.meta.url).href)) as typeof import('./directory-job.ts');
    const temp = tempDir('aula-dir-scratch-');
    roots.push(temp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temp; // os.tmpdir()
    /** this process's descriptors on a deleted scratch file, with their sizes */
    const scratchFiles = () =>
      readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${fd}`);
          return target.startsWith(join(temp, 'aula-directory-')) && target.endsWith(' (deleted)') ? [statSync(`/proc/self/fd/${fd}`).size] : [];
        } catch {
          return []; // closed meanwhile
        }
      });
    try {
      const small = objects.slice(0, 500);
      const { job, answered } = watchingWorkers(() => compiled.startDirectoryJob(small, { minisearch: true, compress: false }));
      // the file has no name from the start, so no way of ending the process can leave it behind
      expect(readdirSync(temp)).toEqual([]);
      // written by the worker, and left there: the worker has answered (the job heard it first)
      // and nothing has read the file, which waits until the build asks
      await answered;
      expect(scratchFiles()).toHaveLength(1);
      expect(scratchFiles()[0]).toBeGreaterThan(0);
      const made = await outputs(job);
      expect(made.autocomplete['index.json']).toBe((await buildAutocompleteFiles(small))['index.json']);
      expect(made.minisearch['minisearch.json']).toEqual((await buildMiniSearchFiles(small))['minisearch.json']);
      // read once, then closed
      expect(scratchFiles()).toEqual([]);
      expect((await job.files).autocomplete).toEqual(made.autocomplete);

      const cancelled = compiled.startDirectoryJob(small, { minisearch: false, compress: false });
      expect(scratchFiles()).toHaveLength(1);
      cancelled.cancel();
      await expect(cancelled.files).rejects.toThrow();
      await expect.poll(() => scratchFiles(), EVENTUALLY).toEqual([]);
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('rejects when the worker fails, and a job that is never awaited leaves no unhandled rejection', async () => {
    const compiled = (await import(new URL('../../../lib/pipeline/directory/directory-job.js', import.meta.url).href)) as typeof import('./directory-job.ts');
    // a directory object without its fields makes the index builder throw on the worker
    const broken = [{ model: 'campus.Person', id: 1 }] as unknown as typeof objects;
    const job = compiled.startDirectoryJob(broken, { minisearch: true, compress: false });
    await expect(job.files).rejects.toThrow();
    const ignored = compiled.startDirectoryJob(broken, { minisearch: false, compress: false });
    ignored.cancel();
  });
});

const buildOptions = { content: '.', out: 'dist', minisearch: false, precompress: false };
/** The files' parses handed on as a parse thread hands them (content/directory.ts DirectoryParse), one stream each. */
function parses(...texts: string[]): DirectoryParse {
  const files = texts.map((_, i) => `directory/${i}.yaml`);
  const parsed = texts.map((text, i) => parseDirectoryFile(files[i], text));
  const streams = parsed.map((p) => {
    const stream = new ParseStream();
    stream.write(p, p.records.map((r) => r.value));
    return { bytes: stream.release(), count: 1 };
  });
  return { parses: streams, keys: joinedKeys(parsed.map((p, i) => ({ keys: directoryKeys(p.records, 0), from: i }))), files, problems: parsed.flatMap((p) => p.problems) };
}
const rooms = '- {model: geo.Room, id: 2, name: B}\n- {model: campus.Room, id: 9, name: C}\n';

describe('directoryOnPool', () => {
  it('hands the directory to its job only when nothing so far has a problem, with its problems and issues', async () => {
    const clean = await directoryOnPool(buildOptions, Promise.resolve(parses(rooms, '- {model: geo.Room, id: 1, name: A}\n')), true);
    expect(clean).toMatchObject({ problems: [], issues: [] });
    expect(clean.stage?.count).toBe(3);
    // the job reads the objects from the parses and sorts them itself
    const objects = [rooms, '- {model: geo.Room, id: 1, name: A}\n'].flatMap((text, i) => parseDirectoryFile(`directory/${i}.yaml`, text).records.map((r) => r.value)).sort(compareDirectory);
    expect((await clean.stage!.job.files).autocomplete).toEqual(await buildAutocompleteFiles(objects));
    clean.stage!.job.cancel();
    // a problem before the directory: its files are checked all the same, and not handed over
    expect((await directoryOnPool(buildOptions, Promise.resolve(parses(rooms)), false)).stage).toBeNull();
    const repeated = await directoryOnPool(buildOptions, Promise.resolve(parses(rooms, '- {model: geo.Room, id: 2, name: A}\n')), true);
    expect(repeated.stage).toBeNull();
    expect(repeated.issues.map((i) => i.file)).toEqual(['directory/0.yaml', 'directory/1.yaml']);
    const broken = await directoryOnPool(buildOptions, Promise.resolve(parses(rooms, 'id: [\n')), true);
    expect(broken.stage).toBeNull();
    expect(broken.problems.map((p) => p.file)).toEqual(['directory/1.yaml']);
  });

  it('holds neither the parses nor the records once the job has them (the events are parsed meanwhile)', async () => {
    let held: WeakRef<object>[] = [];
    const parsing = async () => {
      const parsed = parses(rooms);
      held = [new WeakRef(parsed), new WeakRef(parsed.parses[0].bytes), new WeakRef(parsed.keys)];
      return parsed;
    };
    const { stage } = await directoryOnPool(buildOptions, parsing(), true);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // a WeakRef's target lives to the end of the turn that made it: collected from a later turn on
    await expect.poll(() => (gc(), held.map((ref) => ref.deref() === undefined))).toEqual([true, true, true]);
    stage!.job.cancel();
  });
});
