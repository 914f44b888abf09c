// `aula build`: content/ → validated model → data files → static pages, written to a staging
// folder and swapped in only when complete. Every build runs one sequence of stages over a prior
// — the previous build into the same folder, proven (state/previous-build.ts), or an empty one:
//
//   out-folder/  the output folder checked and locked                  (withLockedOut)
//   state/       the prior read once                                   (readPrior)
//   load/        what changed since the base, as a plan (load): the prior where it is
//                proven, else an empty one, over which every file counts as changed
//   render/      the plan's fresh rows merged into the prior's, the data files, the manifest
//                (renderFromState)
//   write/       the data files in place in the staging folder         (StagedDist.writeData)
//   publish/     pages answered, compressed; swapped in                (publishStage)
//
// Over the prior each stage reuses what the previous build made of the same inputs — the files
// whose stat or parse key is as recorded are not parsed (load/), rows and data files are taken by
// the events they hold (render/previous-data.ts), files by their bytes' or inputs' key
// (ledger/dist-ledger.ts) — and makes the rest; over an empty base (a first build, a refused prior,
// no cache) the same code parses and makes everything. What the next build reuses of this one is
// recorded as it is published (state/, ledger/).
import { resolve } from 'node:path';
import { distCacheFile, tidyCacheFolder } from './cache/cache-folder.ts';
import { load, type ParseCounts } from './load/state-load.ts';
import type { EarlyStats } from './load/next-stats.ts';
import { withLockedOut } from './out-folder/locked-out.ts';
import { inStaging } from './out-folder/swap.ts';
import { readPrior } from './state/previous-build.ts';
import { publishStage } from './publish/publish-stage.ts';
import { renderFromState } from './render/state-render.ts';
import { startClock, type BuildOptions } from './run.ts';
import type { Problem } from '../content/index.ts';
import type { Manifest } from '../store/format/manifest.ts';
import { StagedDist } from './write/staged-dist.ts';

export type { BuildOptions } from './run.ts';

/**
 * Whether the load over the prior took only the changed event files (the files parsed, rows
 * rendered and pages linked are in `cache` and `reuse`), with the event files removed and the
 * documents answered; or why the content was loaded whole.
 */
export interface PatchStats {
  taken: boolean;
  reason?: string;
  removed?: number;
  documents?: number;
}

export type BuildResult =
  | { ok: true; manifest: Manifest; files: number; ms: number; phases: Record<string, number>; cpu: Record<string, number>; cache?: ParseCounts; reuse?: StagedDist['reused']; patch?: PatchStats }
  | { ok: false; problems: Problem[]; cache?: ParseCounts; patch?: PatchStats };

/** `early`: the recorded event files' stats, begun as the command started (cli/early-stats.ts). */
export async function build(options: BuildOptions, early?: EarlyStats): Promise<BuildResult> {
  const clock = startClock(options.progress);
  options.progress?.('load content');
  return withLockedOut(options, async (out) => {
    // what builds stopped mid-way left in the cache folder, and files aula no longer reads (cache/cache-folder.ts)
    if (options.cache !== undefined) tidyCacheFolder(resolve(options.cache));
    const loaded = await load(options, out, clock, readPrior(options, out, await early?.state), early);
    const { plan, cache, refused } = loaded;
    if (plan === null) return { ok: false, problems: loaded.problems, cache, patch: patchStats(options, refused) };
    // render → write → answer → publish, in a staging folder removed if any fails
    return inStaging(out, plan.abandon, async (staging): Promise<BuildResult> => {
      const ledgerFile = options.cache === undefined ? null : distCacheFile(options.cache, options.content, out);
      const dist = new StagedDist(staging, out, ledgerFile, plan.ledger ?? undefined, plan.previous);
      const rendered = await renderFromState(options, clock, plan, dist);
      dist.writeData(rendered);
      await clock.nextPhase('write data', 'load dataset');
      const documents = await publishStage(options, clock, plan, rendered, dist);
      const patch = patchStats(options, refused, { removed: plan.removed, documents });
      return { ok: true, manifest: rendered.manifest, files: filesMade(rendered, dist), ms: performance.now() - clock.started, phases: clock.phases, cpu: clock.cpu, cache, reuse: dist.reused, patch };
    });
  });
}

/** Whether the load took the prior (`refused`: why not), with what it did over it; none without a cache. */
const patchStats = (options: BuildOptions, refused: string | null, taken?: Pick<PatchStats, 'removed' | 'documents'>): PatchStats | undefined =>
  options.cache === undefined ? undefined : refused === null ? { taken: true, ...taken } : { taken: false, reason: refused };

/** The files a build made or linked (the large data files left `rendered.files` once written; `written` still names them). */
const filesMade = (rendered: { files: ReadonlyMap<string, unknown> }, dist: StagedDist) => new Set([...rendered.files.keys(), ...dist.served.keys(), ...dist.written.keys()]).size;
