// The event parts of a build: those whose rows are the previous ones linked from the previous
// dist, those of new rows alone written as cut, the others made on a worker thread from the
// previous parts' runs of unchanged rows and the new rows between them, hashed on the way. Rows
// added or removed shift the rows after them, so every part from the first change on is written.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eventPartFile, eventPartFiles } from '../../store/format/dist-paths.ts';
import type { FileDigest, Manifest } from '../../store/format/manifest.ts';
import type { EventData, Segment } from '../../store/write/event-data.ts';
import { runOnThread, threadModule } from '../../util/start-thread.ts';
import { changedWhileBuilt } from '../ledger/dist-ledger.ts';
import type { StagedDist } from './staged-dist.ts';

/** A part to write: the new file (which must not exist) and its pieces in order. */
export type PartJob = { to: string; segments: Segment[] };

/** A part's SHA-256 (hex) and length. */
export type PartDigest = { sha: string; bytes: number };

/** The previous parts, in order, and their sizes (proven by the ledger). */
export type PreviousParts = { paths: readonly string[]; sizes: readonly number[] };

/** Writes each job's part from its segments on the thread; resolves with their digests in order. */
export function writeEventParts(previous: PreviousParts, jobs: readonly PartJob[]): Promise<PartDigest[]> {
  return runOnThread<PartDigest[]>(threadModule(import.meta.url, 'events-file-worker'), { previous, jobs }, "the event parts' thread stopped");
}

/** The event parts in the staging folder (`inFlight` holds the thread until it is awaited); resolves with the digests of those linked or thread-written. */
export async function eventParts(input: { previous: Manifest | null; out: string; data: Pick<EventData, 'parts' | 'bounds'>; oldSizes: number[] }, dist: StagedDist, inFlight: Promise<unknown>[]): Promise<Map<string, FileDigest>> {
  const { previous, out, data, oldSizes } = input;
  const { bounds } = data;
  const size = (j: number) => bounds[j + 1] - bounds[j];
  const parts = data.parts.map((_, j) => eventPartFile(j));
  /** (`part`: the part each job writes) */
  const jobs: (PartJob & { part: number })[] = [];
  const digests = new Map<string, FileDigest>();
  parts.forEach((rel, j) => {
    const segments = data.parts[j];
    if (segments === null) return;
    // (a thread would be handed a copy of the rows' whole buffer)
    if (segments.every((s) => 'bytes' in s)) {
      dist.data(rel, segments.length === 1 ? segments[0].bytes : Buffer.concat(segments.map((s) => s.bytes)), true);
      return;
    }
    jobs.push({ to: join(dist.staging, rel), segments, part: j });
  });
  if (jobs.length > 0) mkdirSync(join(dist.staging, dirname(parts[0])), { recursive: true });
  const writing = jobs.length === 0 ? Promise.resolve([]) : writeEventParts({ paths: eventPartFiles(previous!).map((rel) => join(out, rel)), sizes: oldSizes }, jobs);
  writing.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  inFlight.push(writing); // a refusal before it is awaited must not remove the folder it writes into
  // the kept parts proven before any is linked (a link moves the ctime the ledger proves it by)
  const kept = parts.flatMap((rel, j) => (data.parts[j] === null ? [{ rel, digest: previous!.files[rel], bytes: size(j) }] : []));
  // (each proven by the ledger when the plan was made: load/state-load.ts provenDist; a link that
  // fails now, the previous dist changed since, fails the build, as a page's does)
  for (const { rel, digest, bytes } of kept) if (digest?.bytes !== bytes || !dist.ledger?.wouldReuse(rel, { sha: digest.sha256 }, null)) throw changedWhileBuilt(rel);
  for (const { rel, digest } of kept) {
    if (!dist.carried(rel, digest.sha256, { volume: null })) throw changedWhileBuilt(rel);
    digests.set(rel, digest);
  }
  (await writing).forEach((file, m) => {
    const j = jobs[m].part;
    if (file.bytes !== size(j)) throw new Error(`${parts[j]}: ${file.bytes} bytes written where ${size(j)} were planned`);
    digests.set(parts[j], { sha256: file.sha, bytes: file.bytes });
    dist.written.set(parts[j], { sha: file.sha });
  });
  return digests;
}
