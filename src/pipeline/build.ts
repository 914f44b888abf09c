// `aula build`: content/ → validated model → data files → static pages, written to a staging
// folder and swapped in only when complete. Every build runs one sequence of stages over a
// prior — the previous build into the same folder, proven (state/previous-build.ts), or none:
//
//   out-folder/  the output folder checked and locked          (withLockedOut)
//   state/       the prior read once                           (readPrior)
//   load/        what changed since the prior: only the event and directory files changed since
//                a proven one read (loadFromState: the plan; the directory a stage of its own,
//                directory/directory-stage.ts), else the content whole, parsed on the parse
//                threads from the parse cache (loadStage: the model)
//   render/      the data files and the manifest: the plan's new rows merged into the prior's
//                (renderFromState), or every row (renderStage); one data stage makes the event
//                data from them and the previous dist's (store/write/event-data.ts)
//   write/       the data files in place in the staging folder  (writeStage)
//   publish/     pages answered, compressed; swapped in          (answerStage, publishStage)
//
// Each stage reuses what an earlier build made for the same inputs — parses by their file's key
// (cache/), rows by their inputs' key (rows/render-cache.ts), data files by the rows they hold
// (render/previous-data.ts), files by their bytes' or inputs' key (ledger/dist-ledger.ts) — and
// makes the rest; without a cache the same code runs with an empty prior and store. What the next
// build reuses of this one is recorded as it is published (state/, ledger/).
import { resolve } from 'node:path';
import { previousManifest } from './ledger/changes.ts';
import { removeStaleTemps } from './cache/stale-temps.ts';
import { loadFromState, type Plan } from './load/state-load.ts';
import type { Loaded } from './load/load-stage.ts';
import { inStaging, withLockedOut } from './out-folder/locked-out.ts';
import { eventStatePath, nextEventState, writeEventState, type StateChanges } from './state/event-state.ts';
import { unlinkQuietly } from './cache/cache-file.ts';
import { refusal } from './state/no-patch.ts';
import { readPrior, type PreviousBuild, type Prior } from './state/previous-build.ts';
import { patchOptions } from './state/state-recorder.ts';
import { answerStage } from './publish/answer-stage.ts';
import { publishStage } from './publish/publish-stage.ts';
import { renderFromState } from './render/state-render.ts';
import { normalizeBaseUrl, startClock, type BuildOptions, type Clock } from './run.ts';
import type { Problem } from '../content/index.ts';
import type { BuildModel } from '../model/event-texts.ts';
import type { Manifest } from '../store/format/manifest.ts';
import type { CacheStats } from './cache/build-cache.ts';
import type { ReuseStats } from './write/staged-dist.ts';
import { StagedDist } from './write/staged-dist.ts';
import { writeStage } from './write/write-stage.ts';

export type { BuildOptions } from './run.ts';
export type { ReuseStats } from './write/staged-dist.ts';
export { normalizeBaseUrl } from './run.ts';

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
  | { ok: true; manifest: Manifest; files: number; ms: number; phases: Record<string, number>; cpu: Record<string, number>; cache?: CacheStats; reuse?: ReuseStats; patch?: PatchStats }
  | { ok: false; problems: Problem[]; cache?: CacheStats };

export async function build(options: BuildOptions): Promise<BuildResult> {
  const clock = startClock(options.progress);
  options.progress?.('load content');
  return withLockedOut(options, async (out) => {
    // what builds stopped mid-way left in the cache folder (stale-temps.ts)
    if (options.cache !== undefined) removeStaleTemps(resolve(options.cache));
    const prior = readPrior(options, out);
    const loaded = await load(options, clock, prior);
    if (loaded.plan) return stagesAfterLoad(options, out, clock, { ...loaded.plan, kind: 'plan' });
    const { model, problems } = loaded.whole.result;
    if (!model) {
      loaded.whole.abandon();
      return { ok: false, problems, cache: loaded.whole.cache?.stats };
    }
    let baseUrl: string;
    try {
      baseUrl = normalizeBaseUrl(options.baseUrl ?? model.site.base_url);
    } catch (e) {
      loaded.whole.abandon();
      throw e;
    }
    return stagesAfterLoad(options, out, clock, { kind: 'whole', ...loaded, model, baseUrl, prior: prior.build });
  });
}

/**
 * The load stage over the prior: where it is a proven previous build, only the event files
 * changed since are read (load/state-load.ts); where it is none, or what changed is more than
 * event files (another file, a problem in a changed file, a previous file not proven), the
 * content whole (load/load-stage.ts), and the reason why.
 */
async function load(options: BuildOptions, clock: Clock, prior: Prior): Promise<{ plan: Plan; whole?: undefined } | { plan?: undefined; whole: Loaded; reason: string }> {
  let reason = prior.reason;
  if (prior.build !== null) {
    try {
      return { plan: await loadFromState(options, prior.build, clock) };
    } catch (e) {
      reason = refusal(e);
    }
  }
  // imported here: a build over the state needs neither the content loader nor the full render
  const { loadStage } = await import('./load/load-stage.ts');
  const whole = await loadStage(options);
  clock.phase('load content', 'render data');
  return { whole, reason: reason! };
}

type AfterLoad =
  | (Plan & { kind: 'plan' })
  | { kind: 'whole'; whole: Loaded; reason: string; model: BuildModel; baseUrl: string; prior: PreviousBuild | null };

/** The files a build made or linked (the large data files left `rendered.files` once written; `written` still names them). */
const filesMade = (rendered: { files: ReadonlyMap<string, unknown> }, dist: StagedDist) => new Set([...rendered.files.keys(), ...dist.served.keys(), ...dist.written.keys()]).size;

const timings = (clock: Clock) => ({ ms: performance.now() - clock.started, phases: clock.phases, cpu: clock.cpu });

/** render → write → answer → publish, in a staging folder removed if any fails. */
async function stagesAfterLoad(options: BuildOptions, out: string, clock: Clock, loaded: AfterLoad): Promise<BuildResult> {
  const inFlight: Promise<unknown>[] = [];
  let dist: StagedDist | null = null;
  const abandon = loaded.kind === 'whole' ? loaded.whole.abandon : () => loaded.directory?.job.cancel();
  const settle = () => Promise.allSettled([...inFlight, dist?.settled()]);
  return inStaging(out, abandon, async (staging) => {
    const cache = options.cache === undefined ? null : { dir: options.cache, content: options.content };
    dist = new StagedDist(staging, out, cache, loaded.kind === 'plan' ? loaded.ledger : undefined);
    const made = loaded.kind === 'plan' ? await renderOverPlan(options, clock, loaded, dist, inFlight) : await renderWhole(options, out, clock, loaded, dist);
    const { rendered } = made;
    const documents = await answerStage(options, clock, { out, previous: made.previous, baseUrl: made.baseUrl, site: made.site, directoryTwins: made.directoryTwins }, rendered, dist);
    made.keepRows?.();
    await publishStage(options, clock, { out, previous: made.previous, media: made.media, record: made.record }, rendered, dist);
    const result = { ok: true as const, manifest: rendered.manifest, files: filesMade(rendered, dist), ...timings(clock) };
    if (loaded.kind === 'whole') return { ...result, cache: loaded.whole.cache?.stats, reuse: dist.reused, patch: options.cache === undefined ? undefined : { taken: false, reason: loaded.reason } };
    const rows = loaded.fresh.length;
    return {
      ...result,
      // as a whole load counts them: files taken without a parse, rows not rendered, files linked
      cache: { hits: loaded.contentFiles - loaded.parsed - (loaded.directory?.files ?? 0), misses: loaded.parsed, corrupt: 0, foreign: false },
      reuse: { rows: { reused: rendered.eventCount - rows, rendered: rows, corrupt: 0 }, pages: dist.reused.pages, files: dist.reused.files },
      patch: { taken: true, removed: loaded.removed, documents },
    };
  }, settle);
}

/** The render over the plan (render/state-render.ts), written; with what the stages after it need. */
async function renderOverPlan(options: BuildOptions, clock: Clock, plan: Plan, dist: StagedDist, inFlight: Promise<unknown>[]) {
  const rendered = await renderFromState(options, options.cache!, plan, dist, inFlight);
  await writeStage(rendered, dist);
  await clock.nextPhase('patch: data', 'load dataset');
  const { state, safe, others, eventFiles, eventStats, eventKeys } = plan;
  const changed = { safe, others, eventFiles, eventStats, eventKeys, rows: rendered.stateRows, mediaSources: state.mediaSources };
  const record = (manifestJson: string) => recordState(plan.statePath, state, changed, manifestJson);
  return { rendered, previous: plan.previous, baseUrl: plan.baseUrl, site: state.site, media: state.media, directoryTwins: plan.directory?.job.compressed ?? null, record, keepRows: rendered.keepRows };
}

/** The render over the content loaded whole (render/render-stage.ts), written; as renderOverPlan. */
async function renderWhole(options: BuildOptions, out: string, clock: Clock, loaded: Extract<AfterLoad, { kind: 'whole' }>, dist: StagedDist) {
  const { renderStage } = await import('./render/render-stage.ts');
  const { whole, model, baseUrl } = loaded;
  const { recorder } = whole;
  const directory = whole.directory!;
  const rendered = await renderStage(options, clock, { out, previous: loaded.prior, model, baseUrl, parsing: whole.parsing, recorder, directory, directoryCount: whole.directoryCount }, dist);
  await writeStage(rendered, dist);
  await clock.nextPhase('write data', 'load dataset');
  const base = { content: resolve(options.content), out, options: patchOptions(options), zone: model.site.timezone, site: model.site, pages: model.pages, categoryIds: model.categories.map((c) => c.id), media: model.media };
  const changes = () => recorder.changes(whole.statRecords, model.site.timezone);
  const record = (manifestJson: string) => recordState(eventStatePath(dist.ledgerFile!), base, changes(), manifestJson);
  return { rendered, previous: previousManifest(out), baseUrl, site: model.site, media: model.media, directoryTwins: directory.compressed, record, keepRows: undefined };
}

/** Writes the next build's event state, one way for every build: its base with what it read and rendered (none: no state, and an old one removed). */
function recordState(path: string, base: Parameters<typeof nextEventState>[0], changed: StateChanges | null, manifestJson: string): void {
  if (changed === null) unlinkQuietly(path);
  else writeEventState(path, nextEventState(base, changed, manifestJson));
}
