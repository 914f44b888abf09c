// The event rows' start-up check off the main thread: a damaged, truncated or mismatched dist is
// refused by name, on this thread and on the compiled worker thread alike; a thread that fails or
// exits is an error, never a hang; a real `aula serve` refuses before it answers anything; a
// live reload of a damaged dist keeps the old data.
import { cpSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAula } from '../../test/aula-cli.ts';
import { copyOfSampleDist, firstPart, removeDir, request, sampleDist, serve, tempDir } from '../../test/helpers.ts';
import { loadDataset } from '../query/dataset.ts';
import { DistError, sha256Hex } from '../store/format/manifest.ts';
import { ChecksumMismatch } from '../store/read/verified-source.ts';
import { liveData } from './live-data.ts';
import { rowsVerifier, type StartThread } from './rows-verifier.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** the first (at this size the only) part of the event rows */
const PART = firstPart(sampleDist());
const EVENTS = `data/events/${PART}.jsonl`;
const OFFSETS = `data/events/${PART}.offsets.bin`;
/** the compiled thread (vitest's global setup compiles lib/), as `aula serve` starts it */
const compiled: StartThread = () => new Worker(join(ROOT, 'lib', 'server', 'rows-check-worker.js'));

let root: string;
let good: string;
let copies = 0;
beforeAll(() => {
  root = tempDir('aula-rows-check-');
  good = copyOfSampleDist(join(root, 'dist'));
});
afterAll(() => removeDir(root));

/** a copy of the good dist with `rel` changed; `fixManifest`: its size and SHA-256 in the manifest follow */
function damaged(rel: string, change: (b: Buffer) => Buffer, fixManifest = false): string {
  const dir = join(root, `copy-${copies++}`);
  cpSync(good, dir, { recursive: true });
  const bytes = change(readFileSync(join(dir, rel)));
  writeFileSync(join(dir, rel), bytes);
  if (fixManifest) {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.files[rel] = { sha256: sha256Hex(bytes), bytes: bytes.byteLength };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  }
  return dir;
}

const flipTitleByte = (b: Buffer) => {
  const out = Buffer.from(b);
  const at = out.indexOf('"title":"') + 9;
  out[at] = out[at] === 0x58 ? 0x59 : 0x58;
  return out;
};
/** two neighbouring field offsets of the first row swapped: same bytes, wrong places */
const swappedOffsets = (b: Buffer) => {
  const starts = new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  [starts[5], starts[6]] = [starts[6], starts[5]];
  return Buffer.from(starts.buffer);
};

/** loads `dir` as the server does at start; the error (or undefined) */
async function startLoad(dir: string, thread?: StartThread | null, baseUrl?: string): Promise<unknown> {
  const verifier = rowsVerifier(dir, { thread });
  try {
    const ds = loadDataset(dir, { verifyRows: verifier.verifyRows, baseUrl });
    try {
      await verifier.done();
    } finally {
      ds.events.rows.close();
    }
  } catch (e) {
    verifier.cancel();
    return e;
  }
  return undefined;
}

describe.each([
  ['on this thread', null],
  ['on the compiled worker thread', compiled],
] as const)('the event rows checked at start %s', (_, thread) => {
  it('passes the dist the build wrote', async () => {
    expect(await startLoad(good, thread)).toBeUndefined();
  });

  it('refuses a byte changed in the event rows, naming the file', async () => {
    const dir = damaged(EVENTS, flipTitleByte);
    const error = await startLoad(dir, thread);
    expect(error).toBeInstanceOf(ChecksumMismatch);
    expect((error as Error).message).toBe(`${join(dir, EVENTS)}: does not match its CRC-32 in manifest.json; rebuild with \`aula build\``);
  });

  it('under another base URL (the rows rewritten before the check ends) names the damaged file as well', async () => {
    // a row's first brace gone: rewritten rows are never checked on their own before the check does
    for (const damage of [flipTitleByte, (b: Buffer) => Buffer.concat([Buffer.from('x'), b.subarray(1)])]) {
      const dir = damaged(EVENTS, damage);
      const error = await startLoad(dir, thread, 'https://example.org/elsewhere');
      expect(error).toBeInstanceOf(ChecksumMismatch);
      expect((error as Error).message).toBe(`${join(dir, EVENTS)}: does not match its CRC-32 in manifest.json; rebuild with \`aula build\``);
    }
    expect(await startLoad(good, thread, 'https://example.org/elsewhere')).toBeUndefined();
  });

  it('refuses a truncated part of the event rows by its size, before reading it', async () => {
    const dir = damaged(EVENTS, (b) => b.subarray(0, b.length - 10));
    const error = await startLoad(dir, thread);
    expect(error).toBeInstanceOf(ChecksumMismatch);
    expect((error as Error).message).toMatch(new RegExp(`^${join(dir, EVENTS)}: is \\d+ bytes, manifest.json says \\d+; rebuild`));
  });

  it('refuses offsets that do not match the rows even when the manifest vouches for them', async () => {
    const dir = damaged(OFFSETS, swappedOffsets, true);
    const error = await startLoad(dir, thread);
    expect(error).toBeInstanceOf(DistError);
    expect(error).not.toBeInstanceOf(ChecksumMismatch);
    expect((error as Error).message).toMatch(new RegExp(`^${join(dir, OFFSETS)}: does not match the event rows in data/events/ \\(field \\w+ of event 0 is not where its offset says\\); rebuild`));
  });

  it('refuses rows changed in place with the manifest fixed up, by the offsets check', async () => {
    // the same length, a key's quote moved: checksums agree, the offsets no longer do
    const dir = damaged(EVENTS, (b) => Buffer.from(b.toString('latin1').replace('"title":', '"titlE":'), 'latin1'), true);
    expect(await startLoad(dir, thread)).toBeUndefined();
    const moved = damaged(EVENTS, (b) => Buffer.from(b.toString('latin1').replace('{"', '{ '), 'latin1'), true);
    expect((await startLoad(moved, thread)) as Error).toMatchObject({ message: expect.stringMatching(new RegExp(`events/${PART}\\.offsets\\.bin: does not match .*event 0`)) });
  });
});

describe('a part replaced between the load opening it and the check opening it', () => {
  it('is refused by name: the check must read the very files the server will answer from', async () => {
    const dir = join(root, `copy-${copies++}`);
    cpSync(good, dir, { recursive: true });
    const verifier = rowsVerifier(dir, { thread: null });
    let error: unknown;
    try {
      const ds = loadDataset(dir, {
        verifyRows: (job) => {
          // same bytes, another file: what a build swapping a new dist in at that moment leaves
          writeFileSync(join(dir, `${EVENTS}.new`), readFileSync(join(dir, EVENTS)));
          renameSync(join(dir, `${EVENTS}.new`), join(dir, EVENTS));
          verifier.verifyRows(job);
        },
      });
      ds.events.rows.close();
    } catch (e) {
      error = e;
    }
    verifier.cancel();
    expect(error).toBeInstanceOf(DistError);
    expect(String((error as Error).message)).toContain(`${join(dir, EVENTS)}: was replaced while it was being loaded`);
  });
});

describe('the check thread failing', () => {
  it('is an error when the thread exits before it answers, or throws, or cannot start — never a hang', async () => {
    const exits: StartThread = () => new Worker('process.exit(3)', { eval: true });
    const throws: StartThread = () => new Worker('throw new Error("no memory for the check")', { eval: true });
    const cannot: StartThread = () => {
      throw new Error('EAGAIN');
    };
    expect(await startLoad(good, exits)).toMatchObject({ message: 'the check of the event rows stopped (exit code 3) before it answered' });
    expect(await startLoad(good, throws)).toMatchObject({ message: expect.stringContaining('no memory for the check') });
    expect(await startLoad(good, cannot)).toMatchObject({ message: expect.stringContaining('could not start: EAGAIN') });
  });

  it('makes the server start fail (liveData rejects) rather than serve unchecked rows', async () => {
    const exits: StartThread = () => new Worker('process.exit(1)', { eval: true });
    await expect(liveData({ dist: good, watch: false, log: () => {}, rowsCheck: { thread: exits } })).rejects.toThrow(/exit code 1/);
  });

  it('cancelled (the load failed elsewhere): done() rejects, the thread is stopped', async () => {
    const verifier = rowsVerifier(good, { thread: compiled });
    const ds = loadDataset(good, { verifyRows: verifier.verifyRows });
    verifier.cancel();
    await expect(verifier.done()).rejects.toThrow();
    ds.events.rows.close();
  });
});

describe('aula serve over damaged event rows', () => {
  const serveOnce = (dist: string, workers: string) => startAula(['serve', '--dist', dist, '--port', '0', '--host', '127.0.0.1', '--workers', workers]).exited;

  it('exits 1 naming the file and never listens, with one process or two workers', async () => {
    const flipped = damaged(EVENTS, flipTitleByte);
    const offsets = damaged(OFFSETS, swappedOffsets, true);
    const runs = await Promise.all([serveOnce(flipped, '1'), serveOnce(flipped, '2'), serveOnce(offsets, '1')]);
    const named = [join(flipped, EVENTS), join(flipped, EVENTS), join(offsets, OFFSETS)];
    runs.forEach(({ code, out, err }, i) => {
      expect(code, err).toBe(1);
      expect(err).toContain(`${named[i]}: `);
      // nothing was announced, so nothing listened (the announcement follows listen)
      expect(out).not.toMatch(/http:\/\//);
    });
  });

  it('a live reload to damaged rows keeps answering from the old data', async () => {
    const dir = damaged(EVENTS, (b) => b);
    const running = await serve(dir, { watch: false });
    try {
      const before = await request(`${running.url}/v1/cms/event/?limit=5`);
      expect(before.status).toBe(200);
      // replaced as a build replaces files, by a rename: the server's open file stays as it was
      writeFileSync(join(dir, `${EVENTS}.new`), flipTitleByte(readFileSync(join(dir, EVENTS))));
      renameSync(join(dir, `${EVENTS}.new`), join(dir, EVENTS));
      expect(await running.reload()).toBe(false);
      expect(running.ready).toBe(false);
      const after = await request(`${running.url}/v1/cms/event/?limit=5`);
      expect(after.status).toBe(200);
      expect(after.text).toBe(before.text);
    } finally {
      await running.close();
    }
  });
});

describe('a check vouched for by another process (aula serve --workers: the primary)', () => {
  const noThread: StartThread = () => {
    throw new Error('checked again');
  };

  it('is not run again for the very files the vouch names, and the vouch names them', async () => {
    const { checkRowsForWorkers } = await import('./primary-rows-check.ts');
    const vouch = await checkRowsForWorkers(good, { thread: compiled });
    expect(vouch.files).toHaveLength(1);
    const verifier = rowsVerifier(good, { thread: noThread, vouched: async () => vouch });
    const ds = loadDataset(good, { verifyRows: verifier.verifyRows });
    await verifier.done();
    ds.events.rows.close();
  });

  it('is run here when the files are others (replaced by a rename) or the job differs, or no vouch comes', async () => {
    const { checkRowsForWorkers } = await import('./primary-rows-check.ts');
    const dir = damaged(EVENTS, (b) => b);
    const vouch = await checkRowsForWorkers(dir, { thread: null });
    // the same bytes damaged and renamed into place: another inode, so checked (and refused) here
    writeFileSync(join(dir, `${EVENTS}.new`), flipTitleByte(readFileSync(join(dir, EVENTS))));
    renameSync(join(dir, `${EVENTS}.new`), join(dir, EVENTS));
    for (const given of [vouch, { ...vouch, key: 'another job' }, null]) {
      const verifier = rowsVerifier(dir, { thread: null, vouched: async () => given });
      const ds = loadDataset(dir, { verifyRows: verifier.verifyRows });
      await expect(verifier.done()).rejects.toThrow(`${join(dir, EVENTS)}: does not match its CRC-32`);
      ds.events.rows.close();
    }
    // and a vouch for another job over the good files is not taken either
    const verifier = rowsVerifier(good, { thread: noThread, vouched: async () => ({ ...vouch, key: 'another job' }) });
    const ds = loadDataset(good, { verifyRows: verifier.verifyRows });
    await expect(verifier.done()).rejects.toThrow(/checked again/);
    ds.events.rows.close();
  });

  it('the primary refuses a damaged dist by name (its workers then check and report it themselves)', async () => {
    const { checkRowsForWorkers } = await import('./primary-rows-check.ts');
    const dir = damaged(EVENTS, flipTitleByte);
    await expect(checkRowsForWorkers(dir, { thread: compiled })).rejects.toThrow(`${join(dir, EVENTS)}: does not match its CRC-32`);
  });
});
