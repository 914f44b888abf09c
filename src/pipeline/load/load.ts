// The load stage: what changed since the prior, as the plan the render takes, or the content's
// problems. Over a proven prior only the changed files are read (state-load.ts); where there is
// none, or it is refused, the content is loaded whole over an empty one (whole-load.ts). The
// content folder is listed, and the recorded event files stat'ed, once for both.
import { resolve } from 'node:path';
import { listContentFolder } from '../../content/files.ts';
import type { Listed } from '../../content/load.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { refusal } from '../state/no-patch.ts';
import type { Prior } from '../state/previous-build.ts';
import { beginRecordedStats } from './stat-table.ts';
import { loadFromState, type Loaded } from './state-load.ts';

export async function load(options: BuildOptions, out: string, clock: Clock, prior: Prior): Promise<Loaded> {
  let reason = prior.reason;
  let listing: Promise<Listed> | undefined;
  const listed = () => (listing ??= listContentFolder(resolve(options.content)));
  const stats = beginRecordedStats(options, prior.stats);
  if (prior.build !== null) {
    try {
      return await loadFromState(options, prior.build, clock, listed, stats);
    } catch (e) {
      reason = refusal(e);
    }
  }
  // imported here: a build over the state needs no content loader
  const { loadWhole } = await import('./whole-load.ts');
  const whole = await loadWhole(options, out, reason!, prior.stats, await listed(), stats);
  // (content with problems renders nothing: its progress ends at the load)
  if (whole.plan) clock.phase('load content', 'render data');
  return whole;
}
