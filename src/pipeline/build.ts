// `aula build`: content/ → validated model → data files → static pages, written to a staging
// folder and swapped in only when complete. Every build runs one sequence of stages over a
// prior — the previous build into the same folder, proven (state/previous-build.ts), or none:
//
//   out-folder/  the output folder checked and locked          (withLockedOut)
//   state/       the prior read once                           (readPrior)
//   load/        what changed since the prior: only the event files changed since a proven one
//                read (loadFromState: the plan), else the content whole, parsed on the parse
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
import { eventStatePath, nextEventState, writeEventState } from './state/event-state.ts';
import { NoPatch } from './state/no-patch.ts';
import { readPrior, type PreviousBuild, type Prior } from './state/previous-build.ts';
import { patchOptions, StateRecorder } from './state/state-recorder.ts';
import { answerStage } from './publish/answer-stage.ts';
import { publishStage } from './publish/publish-stage.ts';
import type { Rendered } from './render/render-stage.ts';
import { renderFromState } from './render/state-render.ts';
import { normalizeBaseUrl, startClock, type BuildOptions, type Clock } from './run.ts';
import type { Problem } from '../content/index.ts';
import type { Precompressed } from '../deploy/precompress.ts';
import type { BuildModel } from '../model/event-texts.ts';
import type { Media, Site } from '../model/types.ts';
import type { Manifest } from '../store/format/manifest.ts';
import type { CacheStats } from './cache/build-cache.ts';
import type { ReuseStats } from './write/staged-dist.ts';
import { StagedDist } from './write/staged-dist.ts';
import { writeStage } from './write/write-stage.ts';

export type { BuildOptions } from './run.ts';
export type { ReuseStats } from './write/staged-dist.ts';
export { normalizeBaseUrl } from './run.ts';

/** What the load over the prior took (only the changed event files read), or why the content was loaded whole. */
export interface PatchStats {
  taken: boolean;
  /** why the full load ran instead */
  reason?: string;
  /** event files read and parsed (changed or added), and removed */
  parsed?: number;
  removed?: number;
  /** rows rendered anew, and the list's length */
  rendered?: number;
  events?: number;
  /** list pages answered, and linked from the previous dist */
  answered?: number;
  linked?: number;
  /** documents answered (the others were linked) */
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
async function load(options: BuildOptions, clock: Clock, prior: Prior): Promise<{ plan: Plan; whole?: undefined } | { plan?: undefined; whole: Loaded; recorder: StateRecorder; reason: string }> {
  let reason = prior.reason;
  if (prior.build !== null) {
    try {
      return { plan: await loadFromState(options, prior.build, clock) };
    } catch (e) {
      reason = e instanceof NoPatch ? e.message : `unexpected: ${(e as Error).message}`;
    }
  }
  // imported here: a build over the state needs neither the content loader nor the full render
  const { loadStage } = await import('./load/load-stage.ts');
  // what the next build needs to build over this one's state (state/event-state.ts)
  const recorder = new StateRecorder();
  const whole = await loadStage(options, recorder);
  clock.phase('load content', 'render data');
  return { whole, recorder, reason: reason! };
}

type AfterLoad =
  | (Plan & { kind: 'plan' })
  | { kind: 'whole'; whole: Loaded; recorder: StateRecorder; reason: string; model: BuildModel; baseUrl: string; prior: PreviousBuild | null };

/** The files a build made or linked (the large data files left `rendered.files` once written; `written` still names them). */
const filesMade = (rendered: { files: ReadonlyMap<string, unknown> }, dist: StagedDist) => new Set([...rendered.files.keys(), ...dist.served.keys(), ...dist.written.keys()]).size;

const timings = (clock: Clock) => ({ ms: performance.now() - clock.started, phases: clock.phases, cpu: clock.cpu });

/** render → write → answer → publish, in a staging folder removed if any fails. */
async function stagesAfterLoad(options: BuildOptions, out: string, clock: Clock, loaded: AfterLoad): Promise<BuildResult> {
  const inFlight: Promise<unknown>[] = [];
  let dist: StagedDist | null = null;
  const abandon = loaded.kind === 'whole' ? loaded.whole.abandon : () => undefined;
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
    const count = rendered.eventCount;
    const rows = loaded.fresh.length;
    const linked = dist.reused.pages;
    return {
      ...result,
      // as a whole load counts them: files taken without a parse, rows not rendered, files linked
      cache: { hits: loaded.contentFiles - loaded.parsed, misses: loaded.parsed, corrupt: 0, foreign: false },
      reuse: { rows: { reused: count - rows, rendered: rows, corrupt: 0 }, pages: linked, files: dist.reused.files },
      patch: { taken: true, parsed: loaded.parsed, removed: loaded.removed, rendered: rows, events: count, answered: rendered.manifest.counts.event_list_pages - linked, linked, documents },
    };
  }, settle);
}

/** What the stages after render need of it, whichever load it rendered. */
interface Made {
  rendered: Rendered;
  previous: Manifest | null;
  baseUrl: string;
  site: Site;
  media: ReadonlyMap<number, Media>;
  directoryTwins: Promise<ReadonlyMap<string, Precompressed>> | null;
  /** records the next build's event state, bound to the manifest as written */
  record: (manifestJson: string) => void;
  /** keeps the rows made in the rows cache (the render over the plan appends them there) */
  keepRows?: () => void;
}

/** The render over the plan (render/state-render.ts), written. */
async function renderOverPlan(options: BuildOptions, clock: Clock, plan: Plan, dist: StagedDist, inFlight: Promise<unknown>[]): Promise<Made> {
  const rendered = await renderFromState(options, options.cache!, plan, dist, inFlight);
  await writeStage(rendered, dist);
  await clock.nextPhase('patch: data', 'load dataset');
  const { state, safe, others, eventFiles, eventStats, eventKeys } = plan;
  const changed = { safe, others, eventFiles, eventStats, eventKeys, rows: rendered.stateRows };
  const record = (manifestJson: string) => writeEventState(plan.statePath, nextEventState(state, changed, manifestJson));
  return { rendered, previous: plan.previous, baseUrl: plan.baseUrl, site: state.site, media: state.media, directoryTwins: null, record, keepRows: rendered.keepRows };
}

/** The render over the content loaded whole (render/render-stage.ts), written. */
async function renderWhole(options: BuildOptions, out: string, clock: Clock, loaded: Extract<AfterLoad, { kind: 'whole' }>, dist: StagedDist): Promise<Made> {
  const { renderStage } = await import('./render/render-stage.ts');
  const { whole, recorder, model, baseUrl } = loaded;
  const directory = whole.directory!;
  const rendered = await renderStage(options, clock, { out, previous: loaded.prior, model, baseUrl, parsing: whole.parsing, recorder, directory, directoryCount: whole.directoryCount }, dist);
  await writeStage(rendered, dist);
  await clock.nextPhase('write data', 'load dataset');
  const record = (manifestJson: string) => recorder.write(eventStatePath(dist.ledgerFile!), {
    content: resolve(options.content), out, options: patchOptions(options), zone: model.site.timezone, model, stats: whole.statRecords, manifestJson,
  });
  return { rendered, previous: previousManifest(out), baseUrl, site: model.site, media: model.media, directoryTwins: directory.compressed, record };
}
