// The build figures of issue 16 ("done when"): a cold build with a fresh build cache (time, peak
// RSS), then, with that cache warm and into the same --out, one event's title changed, one event
// added and one deleted; the edits undone and rebuilt; and a cold build --no-cache into another
// folder, both for comparison and as a check that the incremental dist is byte-identical to it.
//
// Both cold builds run first, before any build has replaced (deleted) a dist: on ext4 (Linux
// 6.18 here) a file created within a minute or more of many deletions makes the kernel step over
// each recently freed inode it meets (recently_deleted, in a perf profile of open()). Cold builds
// that followed the removal of a previous dist and cache took 11.6-15.5 s of system time instead
// of ~6-7 s. A CI machine building a fresh checkout has deleted nothing first. The bench cannot
// know what ran before it, so it probes file creation where each build is about to write
// (file-creation.ts) and reports it beside the build.
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { frontMatterValue, markdownEvents, setFrontMatter, unusedEventId } from './content-edits.ts';
import { probeFileCreation } from './file-creation.ts';
import { measuredAula, type MeasuredRun } from './measured-run.ts';

export interface DistComparison {
  files: number;
  /** relative paths that differ, are missing or extra (at most 20) */
  differing: string[];
  differingCount: number;
}

/** A build as measured, and how long creating a file took where it wrote, probed just before it (µs). */
export type BuildRun = MeasuredRun & {
  createMicros?: number;
  /** how long the writes of what ran before took to reach the disk (`sync`, just before it), ms; null: sync failed */
  flushMs?: number | null;
};

export interface BuildRuns {
  /**
   * `aula build` with the build cache on, in a fresh cache folder (the CLI's default is on): the
   * run of median time among `coldRuns`
   */
  cold: BuildRun;
  /** every cold build with the cache on, in the order they ran, each into fresh folders */
  coldRuns: BuildRun[];
  change: MeasuredRun;
  added: MeasuredRun;
  deleted: MeasuredRun;
  /** the three edits undone, back to the generated content */
  restored: MeasuredRun;
  /** `aula build --no-cache` of the generated content into a fresh folder */
  noCache: BuildRun;
  /** the dist after the edits and their undo against the --no-cache build, changes.json aside */
  identical: DistComparison;
  /** the files edited, relative to the content folder */
  files: { changed: string; added: string; deleted: string };
}

/** Every file below a folder, relative, sorted. */
function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/**
 * Byte-for-byte comparison of two dist folders. changes.json is left out: it lists what changed
 * since the previous build, so an incremental build and a clean one rightly differ there.
 */
export function compareDists(a: string, b: string, ignore: readonly string[] = ['changes.json']): DistComparison {
  const left = listTree(a).filter((f) => !ignore.includes(f));
  const right = new Set(listTree(b).filter((f) => !ignore.includes(f)));
  const differing: string[] = [];
  let differingCount = 0;
  const differs = (rel: string) => {
    if (differing.length < 20) differing.push(rel);
    differingCount++;
  };
  for (const rel of left) {
    if (!right.delete(rel)) differs(rel);
    else if (statSync(join(a, rel)).size !== statSync(join(b, rel)).size || !readFileSync(join(a, rel)).equals(readFileSync(join(b, rel)))) differs(rel);
  }
  for (const rel of right) differs(rel);
  return { files: left.length, differing, differingCount };
}

export const ADDED_FILE = 'events/bench/added-event.md';
/** the added event's start and end: after every generated event's */
export const ADDED_START = '2099-01-02 10:00:00';
export const ADDED_END = '2099-01-02T12:00:00';

/**
 * Cold builds with the cache on, each into fresh folders: on two shared cores one build's time
 * varies by ±3 s from run to run (15 %), so the target is judged on the median of three, and all
 * three are reported.
 */
export const COLD_RUNS = 3;

/** The run of median wall time (the lower middle one of an even count). */
export function medianRun<T extends MeasuredRun>(runs: readonly T[]): T {
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export async function runBuilds(options: {
  aula: string;
  root: string;
  contentDir: string;
  distDir: string;
  work: string;
  log: (line: string) => void;
  /** cold builds with the cache on (COLD_RUNS by default) */
  coldRuns?: number;
}): Promise<BuildRuns> {
  const { aula, root, contentDir, distDir, work, log } = options;
  const cacheDir = join(work, 'build-cache');
  const scratch = join(work, 'rusage');
  mkdirSync(scratch, { recursive: true });
  let probes = 0;
  /** `probe`: first measure file creation beside `out` (the cold builds, which write every file) */
  const build = async (label: string, out: string, cache: string[], probe = false): Promise<BuildRun> => {
    // The builds before wrote ~1.4 GB each (dist and cache) and the kernel writes it back while
    // the next one runs: a one-event build right after three cold ones spent 0.5 s of its swap
    // waiting on that (its renames), with nothing of its own to write. Flushed first, each build
    // is timed alone, as a user's build after an edit, or in CI, is.
    // (timed and reported: that writeback is charged to no build, and a build right after another,
    // as in `aula dev`, may well meet some of it)
    const flushStart = performance.now();
    const synced = spawnSync('sync');
    const flushMs = synced.error || synced.status !== 0 ? null : performance.now() - flushStart;
    const createMicros = probe ? probeFileCreation(join(dirname(out), `.file-creation-${++probes}`)) : undefined;
    const run = await measuredAula(aula, ['build', '--content', contentDir, '--out', out, ...cache, '--timings'], { cwd: root, scratch });
    log(`${label.padEnd(22)} ${(run.wallMs / 1000).toFixed(2)} s wall, ${run.cpuMs === undefined ? '?' : (run.cpuMs / 1000).toFixed(2)} s CPU, ` +
      `peak RSS ${(run.peakRssBytes / 1024 ** 2).toFixed(0)} MiB${run.cache ? `; ${run.cache.parsed} files parsed, ${run.cache.reused} reused` : ''}` +
      `${createMicros === undefined ? '' : `; a file created beside it in ${createMicros.toFixed(0)} µs`}` +
      `; ${flushMs === null ? 'earlier writes NOT flushed (sync failed)' : `earlier writes flushed first in ${(flushMs / 1000).toFixed(2)} s`}`);
    return createMicros === undefined ? { ...run, flushMs } : { ...run, createMicros, flushMs };
  };
  const withCache = ['--cache', cacheDir];

  // of the generated content, as the content is again once the edits below are undone
  const cleanDir = join(work, 'dist-no-cache');
  const noCache = await build('cold build, --no-cache', cleanDir, ['--no-cache'], true);
  // the first into the dist and cache the edits below build on; the others into folders of their
  // own, all kept until every build has run (deleting them first would slow the next ones down: above)
  const coldRuns = [await build('cold build, cache on', distDir, withCache, true)];
  const extraCold: string[] = [];
  for (let i = 2; i <= (options.coldRuns ?? COLD_RUNS); i++) {
    const dir = join(work, `cold-${i}`);
    extraCold.push(dir);
    coldRuns.push(await build(`cold build ${i}, cache on`, join(dir, 'dist'), ['--cache', join(dir, 'build-cache')], true));
  }
  const cold = medianRun(coldRuns);

  const md = markdownEvents(contentDir);
  if (md.length < 2) throw new Error(`the one-event builds need two Markdown event files in ${contentDir}/events, found ${md.length}`);
  const [changed, deletedFile] = md;
  const original = { changed: readFileSync(join(contentDir, changed), 'utf8'), deleted: readFileSync(join(contentDir, deletedFile), 'utf8') };
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(contentDir, rel)), { recursive: true });
    writeFileSync(join(contentDir, rel), text);
  };

  write(changed, setFrontMatter(original.changed, 'title', JSON.stringify('Bench: one changed title')));
  const change = await build('one event changed', distDir, withCache);

  // an upcoming event, as a new one usually is: first in the list (newest start first), so every
  // row and part after it moves, the costly case for an incremental build
  const starting = setFrontMatter(original.changed, 'start', ADDED_START);
  const upcoming = frontMatterValue(starting, 'end') === undefined ? starting : setFrontMatter(starting, 'end', ADDED_END);
  const addedText = setFrontMatter(setFrontMatter(upcoming, 'id', String(unusedEventId(contentDir))), 'title', JSON.stringify('Bench: one added event'));
  write(ADDED_FILE, addedText);
  const added = await build('one event added', distDir, withCache);

  unlinkSync(join(contentDir, deletedFile));
  const deleted = await build('one event deleted', distDir, withCache);

  // back to the generated content: the load passes query it, and the --no-cache build above saw
  // it, so that the two dists are comparable
  write(changed, original.changed);
  write(deletedFile, original.deleted);
  unlinkSync(join(contentDir, ADDED_FILE));
  rmdirSync(join(contentDir, dirname(ADDED_FILE))); // the bench made it; it fails if anything else is in it
  const restored = await build('edits undone', distDir, withCache);

  const identical = compareDists(distDir, cleanDir);
  log(identical.differingCount === 0
    ? `incremental dist byte-identical to the --no-cache build (${identical.files} files, changes.json aside)`
    : `incremental dist DIFFERS from the --no-cache build in ${identical.differingCount} files: ${identical.differing.slice(0, 5).join(', ')}`);
  for (const dir of [cleanDir, ...extraCold]) rmSync(dir, { recursive: true, force: true });

  return { cold, coldRuns, change, added, deleted, restored, noCache, identical, files: { changed, added: ADDED_FILE, deleted: deletedFile } };
}
