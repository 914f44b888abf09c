// The load stage: what changed since the prior, as the plan the render takes, or the content's
// problems. Over a proven prior only the changed files are read (state-load.ts); where there is
// none, or it is refused (NoPatch), every file is, over an empty base (load-all.ts). The content
// folder is listed, and the recorded event files stat'ed, once for both.
import { resolve } from 'node:path';
import { listContentFolder } from '../../content/files.ts';
import type { Listed } from '../../content/load.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { refusal } from '../state/no-patch.ts';
import type { Prior } from '../state/previous-build.ts';
import { beginRecordedStats } from './stat-table.ts';
import { loadOver, type Loaded } from './state-load.ts';

export async function load(options: BuildOptions, out: string, clock: Clock, prior: Prior): Promise<Loaded> {
  let reason = prior.reason;
  let listing: Promise<Listed> | undefined;
  const listed = () => (listing ??= listContentFolder(resolve(options.content)));
  const stats = beginRecordedStats(options, prior.stats);
  if (prior.build !== null) {
    try {
      return await loadOver(options, prior.build, clock, listed, stats);
    } catch (e) {
      reason = refusal(e);
    }
  }
  // imported here: a build over the state needs no content loader
  const { loadAll, emptyBase } = await import('./load-all.ts');
  return loadAll(options, emptyBase(options, out, prior.stats, reason!), clock, await listed(), stats);
}
