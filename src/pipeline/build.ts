// `aula build`: content/ → validated model → data files → static pages, written to a staging
// folder and swapped in only when complete. The stages, in order:
//
//   out-folder/  the output folder checked and locked          (withLockedOut)
//   load/        content read, parsed and checked: the model   (loadStage)
//                or, where only event files changed, what changed over the event state (loadFromState)
//   render/      the data files and the manifest               (renderStage, or renderFromState)
//   write/       the data files in place in the staging folder  (writeStage)
//   publish/     pages answered, compressed; swapped in          (answerStage, publishStage)
//
// Each stage reuses what an earlier build made for the same inputs — parses by their file's key
// (cache/), rows by their inputs' key (rows/render-cache.ts), data files by the rows they hold
// (render/previous-data.ts), files by their bytes' or inputs' key (ledger/dist-ledger.ts) — and
// makes the rest; without a cache the same code runs with an empty store. What the next build
// reuses of this one is recorded as it is published (state/, ledger/).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { previousManifest } from './ledger/changes.ts';
import { removeStaleTemps } from './cache/stale-temps.ts';
import { loadFromState, type StateHost } from './load/state-load.ts';
import { inStaging, withLockedOut } from './out-folder/locked-out.ts';
import { createStaging, removeStaging } from './out-folder/swap.ts';
import { eventStatePath, nextEventState, writeEventState } from './state/event-state.ts';
import { NoPatch } from './state/no-patch.ts';
import { onePreviousBuild, type PreviousBuild } from './state/previous-build.ts';
import { patchOptions, StateRecorder } from './state/state-recorder.ts';
import { answerStage } from './publish/answer-stage.ts';
import { publishStage } from './publish/publish-stage.ts';
import { renderFromState } from './render/state-render.ts';
import { normalizeBaseUrl, startClock, type BuildOptions, type Clock } from './run.ts';
import type { Problem } from '../content/index.ts';
import type { Manifest } from '../store/format/manifest.ts';
import type { CacheStats } from './cache/build-cache.ts';
import type { ReuseStats } from './write/staged-dist.ts';
import { StagedDist } from './write/staged-dist.ts';
import { writeStage } from './write/write-stage.ts';

export type { BuildOptions } from './run.ts';
export type { ReuseStats } from './write/staged-dist.ts';
export { normalizeBaseUrl } from './run.ts';

/** What a build over the event state did, or why the content was loaded whole instead. */
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
    let patch: PatchStats | undefined;
    const prior = onePreviousBuild(options, out, options.cache ?? '');
    if (options.cache !== undefined) {
      // what builds stopped mid-way left in the cache folder (stale-temps.ts)
      removeStaleTemps(resolve(options.cache));
      const built = await stagesOverState(options, { out, cacheDir: options.cache, clock, previous: prior });
      if ('ok' in built) return built;
      patch = built;
    }
    return buildStages(options, out, clock, patch, prior);
  });
}

/** The files a build made or linked (the large data files left `rendered.files` once written; `written` still names them). */
const filesMade = (rendered: { files: ReadonlyMap<string, unknown> }, dist: StagedDist) => new Set([...rendered.files.keys(), ...dist.served.keys(), ...dist.written.keys()]).size;

const timings = (clock: Clock) => ({ ms: performance.now() - clock.started, phases: clock.phases, cpu: clock.cpu });

/**
 * The stages with the event state standing in for the content, where only event files changed
 * since the last build into `out`; what refuses it (another file changed, no or a damaged state,
 * a dist the ledger does not prove, a problem in a changed file, anything unexpected before the
 * dist is published) changes nothing and says why: the content is loaded whole then, and
 * problems are reported exactly as ever, so this path never has to report one itself.
 */
async function stagesOverState(options: BuildOptions, host: StateHost): Promise<BuildResult | PatchStats> {
  let staging: string | null = null;
  const inFlight: Promise<unknown>[] = [];
  let publishing = false;
  try {
    const plan = await loadFromState(options, host);
    staging = createStaging(host.out);
    const dist = new StagedDist(staging, host.out, { dir: host.cacheDir, content: options.content }, plan.ledger);
    const rendered = await renderFromState(options, host, plan, dist, inFlight);
    await writeStage(rendered, dist);
    await host.clock.nextPhase('patch: data', 'load dataset');
    const { state } = plan;
    const documents = await answerStage(options, host.clock, { out: host.out, previous: plan.previous, baseUrl: plan.baseUrl, site: state.site, directoryTwins: null }, rendered, dist);
    rendered.keepRows();
    // from here on a failure is the build's own, as in a full build (not a reason to build again)
    publishing = true;
    const { safe, others, eventFiles, eventStats, eventKeys } = plan;
    const changed = { safe, others, eventFiles, eventStats, eventKeys, rows: rendered.stateRows };
    const record = (manifestJson: string) => writeEventState(plan.statePath, nextEventState(state, changed, manifestJson));
    await publishStage(options, host.clock, { out: host.out, previous: plan.previous, media: state.media, record }, rendered, dist);
    const count = rendered.eventCount;
    const rows = plan.fresh.length;
    const linked = dist.reused.pages;
    return {
      ok: true,
      manifest: rendered.manifest,
      files: filesMade(rendered, dist),
      ...timings(host.clock),
      // as a full build counts them: files taken without a parse, rows not rendered, files linked
      cache: { hits: plan.contentFiles - plan.parsed, misses: plan.parsed, corrupt: 0, foreign: false },
      reuse: { rows: { reused: count - rows, rendered: rows, corrupt: 0 }, pages: linked, files: dist.reused.files },
      patch: { taken: true, parsed: plan.parsed, removed: plan.removed, rendered: rows, events: count, answered: rendered.manifest.counts.event_list_pages - linked, linked, documents },
    };
  } catch (e) {
    // links and writes still being made into the staging folder would land in it while it is removed
    await Promise.allSettled(inFlight);
    if (staging !== null && existsSync(staging)) removeStaging(staging);
    if (publishing) throw e;
    if (e instanceof NoPatch) return { taken: false, reason: e.message };
    return { taken: false, reason: `unexpected: ${(e as Error).message}` };
  }
}

/** The stages over the content loaded whole. */
async function buildStages(options: BuildOptions, out: string, clock: Clock, patch: PatchStats | undefined, prior: () => PreviousBuild): Promise<BuildResult> {
  // imported here: a build over the state needs neither the content loader nor the full render
  const [{ loadStage }, { renderStage }] = await Promise.all([import('./load/load-stage.ts'), import('./render/render-stage.ts')]);
  // what the next build needs to build over this one's state (state/event-state.ts)
  const recorder = new StateRecorder();
  const loaded = await loadStage(options, recorder);
  clock.phase('load content', 'render data');
  const { model, problems } = loaded.result;
  const cache = loaded.cache?.stats;
  if (!model) {
    loaded.abandon();
    return { ok: false, problems, cache };
  }
  let baseUrl: string;
  try {
    baseUrl = normalizeBaseUrl(options.baseUrl ?? model.site.base_url);
  } catch (e) {
    loaded.abandon();
    throw e;
  }
  const previous = previousManifest(out);
  let settle: () => Promise<unknown> = async () => undefined;
  return inStaging(out, loaded.abandon, async (staging) => {
    const dist = new StagedDist(staging, out, options.cache === undefined ? null : { dir: options.cache, content: options.content });
    settle = () => dist.settled();
    const directory = loaded.directory!;
    const rendered = await renderStage(options, clock, { out, previous: prior, model, baseUrl, parsing: loaded.parsing, recorder, directory, directoryCount: loaded.directoryCount }, dist);
    await writeStage(rendered, dist);
    await clock.nextPhase('write data', 'load dataset');
    await answerStage(options, clock, { out, previous, baseUrl, site: model.site, directoryTwins: directory.compressed }, rendered, dist);
    const record = (manifestJson: string) => recorder.write(eventStatePath(dist.ledgerFile!), {
      content: resolve(options.content), out, options: patchOptions(options), zone: model.site.timezone, model, stats: loaded.statRecords, manifestJson,
    });
    await publishStage(options, clock, { out, previous, media: model.media, record }, rendered, dist);
    return { ok: true, manifest: rendered.manifest, files: filesMade(rendered, dist), ...timings(clock), cache, reuse: dist.reused, patch };
  }, () => settle());
}
