// `aula build`: content/ → validated model → data files → static pages, written to a staging
// folder and swapped in only when complete. The stages, in order:
//
//   out-folder/  the output folder checked and locked          (withLockedOut)
//   load/        content read, parsed and checked: the model   (loadStage)
//   render/      the model's data files and the manifest        (renderStage)
//   write/       the data files in place in the staging folder  (writeStage)
//   publish/     pages answered, compressed; swapped in          (answerStage, publishStage)
//
// Each stage reuses what an earlier build made for the same inputs — parses by their file's key
// (cache/), rows by their inputs' key (render/render-cache.ts), files by their bytes' or inputs'
// key (publish/dist-ledger.ts) — and makes the rest; without a cache the same code runs with an
// empty store. When only event files changed, patch/ still patches the previous dist instead.
import { resolve } from 'node:path';
import { previousManifest } from './ledger/changes.ts';
import { removeStaleTemps } from './cache/stale-temps.ts';
import { loadStage } from './load/load-stage.ts';
import { inStaging, withLockedOut } from './out-folder/locked-out.ts';
import { tryPatch, type PatchStats } from './patch/patch-build.ts';
import { patchOptions, StateRecorder } from './patch/state-recorder.ts';
import { eventStatePath } from './patch/event-state.ts';
import { onePreviousBuild, type PreviousBuild } from './patch/plan.ts';
import { answerStage } from './publish/answer-stage.ts';
import { publishStage } from './publish/publish-stage.ts';
import { renderStage } from './render/render-stage.ts';
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
      // only event files changed since the last build into `out`: its dist is patched
      const patched = await tryPatch(options, { out, cacheDir: options.cache, clock, previous: prior });
      if (patched.ok) return { ok: true, manifest: patched.manifest, files: patched.files, ...timings(clock), cache: patched.cache, reuse: patched.reuse, patch: patched.stats };
      patch = patched.stats;
    }
    return buildStages(options, out, clock, patch, prior);
  });
}

const timings = (clock: Clock) => ({ ms: performance.now() - clock.started, phases: clock.phases, cpu: clock.cpu });

async function buildStages(options: BuildOptions, out: string, clock: Clock, patch: PatchStats | undefined, prior: () => PreviousBuild): Promise<BuildResult> {
  // what the next build needs to patch this one's dist (patch/event-state.ts)
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
    // what the next build needs to patch this one's dist (patch/event-state.ts)
    const record = (manifestJson: string) => recorder.write(eventStatePath(dist.ledgerFile!), {
      content: resolve(options.content), out, options: patchOptions(options), zone: model.site.timezone, model, stats: loaded.statRecords, manifestJson,
    });
    await publishStage(options, clock, { out, previous, media: model.media, record }, rendered, dist);
    // the large data files left `files` once written; `written` still names them
    const count = new Set([...rendered.files.keys(), ...dist.served.keys(), ...dist.written.keys()]).size;
    return { ok: true, manifest: rendered.manifest, files: count, ...timings(clock), cache, reuse: dist.reused, patch };
  }, () => settle());
}
