// The load stage: what changed since the prior, as the plan the render takes, or the content's
// problems, by one load over a base (state-load.ts): the prior where it is proven, else (none, or
// refused: NoPatch) an empty one, over which every file counts as changed. The content folder is
// listed, and the recorded event files stat'ed, once for both.
import { resolve } from 'node:path';
import { listContentFolder } from '../../content/files.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { stateRows } from '../state/event-state.ts';
import { refusal } from '../state/no-patch.ts';
import { patchOptions, type Prior } from '../state/previous-build.ts';
import { beginRecordedStats } from './stat-table.ts';
import { loadOver, type Loaded } from './state-load.ts';

export async function load(options: BuildOptions, out: string, clock: Clock, prior: Prior): Promise<Loaded> {
  const stats = beginRecordedStats(options, prior.stats);
  const listing = listContentFolder(resolve(options.content));
  let reason = prior.reason;
  if (prior.build !== null) {
    try {
      return await loadOver(options, { build: prior.build, state: prior.build.state, reason: null, recorded: null }, clock, await listing, stats);
    } catch (e) {
      reason = refusal(e);
    }
  }
  const none = { safe: 0n, zone: '', eventFiles: [], eventStats: new BigInt64Array(0), eventKeys: Buffer.alloc(0), otherFiles: [], otherStats: new BigInt64Array(0), otherKeys: Buffer.alloc(0) };
  const context = { site: null as never, pages: new Map(), media: new Map(), categoryIds: [], mediaSources: [], rows: stateRows(0) };
  const state = { ...none, ...context, content: resolve(options.content), out, options: patchOptions(options), manifestSha: '' };
  return loadOver(options, { build: null, state, reason, recorded: prior.stats }, clock, await listing, stats);
}
