// The previous build into --out, as the next build reuses it: its manifest, the event state
// written with it (event-state.ts) and its ledger (ledger/dist-ledger.ts), each proven to be the
// others' and made with the same content folder and options: the build's prior, read once, for
// the event state to stand in for the content (load/state-load.ts) and for the previous data
// files' reuse (render/previous-data.ts).
import { join, resolve } from 'node:path';
import type { Manifest } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { readCacheFile } from '../cache/cache-file.ts';
import { DistLedger, ledgerPath } from '../ledger/dist-ledger.ts';
import { eventStatePath, manifestShaOf, readEventState, type EventState } from './event-state.ts';
import { MANIFEST_LIMIT } from '../out-folder/out-folder.ts';
import { refusal, refuse } from './no-patch.ts';
import { stableJson } from '../../util/stable-json.ts';

/**
 * The build's options as one string (every option but the callbacks): a build over the event
 * state is made only under the same. None is picked out as shaping the dist, so an option added
 * later is in it already; one that does not shape it (a lock's wait) costs, when changed, one full
 * build.
 */
export function patchOptions(o: object): string {
  return stableJson(Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v !== 'function' && v !== undefined)));
}

/** An event state's bound: what does not grow with the site, and a generous most per record. */
const STATE_BASE = 16 << 20;
const STATE_PER_RECORD = 4096;

export interface PreviousBuild {
  ledgerFile: string;
  statePath: string;
  previous: Manifest;
  state: EventState;
  ledger: DistLedger;
}

/**
 * What a build starts from: the previous build into `out`, proven (previousBuild), or nothing —
 * without a cache, a first build, other options, a damaged or foreign state — and why. Read once,
 * before the content: every stage reuses of this one prior or makes its output anew.
 */
export type Prior = { build: PreviousBuild; reason: null } | { build: null; reason: string };

export function readPrior(options: object & { content: string; cache?: string }, out: string): Prior {
  if (options.cache === undefined) return { build: null, reason: 'no cache' };
  try {
    return { build: previousBuild(options, out, options.cache), reason: null };
  } catch (e) {
    return { build: null, reason: refusal(e) };
  }
}

/**
 * The previous build into `out`: its manifest, the event state written with it (for the same
 * content and options) and its ledger; refuses (NoPatch) where any is missing or not the others'.
 */
export function previousBuild(options: object & { content: string }, out: string, cacheDir: string): PreviousBuild {
  const content = resolve(options.content);
  const ledgerFile = ledgerPath(cacheDir, options.content, out);
  const statePath = eventStatePath(ledgerFile);
  const manifestText = readCacheFile(join(out, 'manifest.json'), MANIFEST_LIMIT) ?? refuse('no previous manifest');
  const previous = JSON.parse(manifestText.toString('utf8')) as Manifest;
  // the state holds a few hundred bytes per event, page, category and media record it describes
  const described = ['events', 'pages', 'categories', 'media'].reduce((n, k) => n + (Number(previous.counts?.[k as 'events']) || 0), 0);
  const state = readEventState(statePath, content, out, STATE_BASE + described * STATE_PER_RECORD) ?? refuse('no usable event state');
  if (state.options !== patchOptions(options)) refuse('other build options');
  if (manifestShaOf(manifestText) !== state.manifestSha) refuse('the dist is not the one the state describes');
  if (previous.version !== AULA_VERSION) refuse('another aula');
  const ledger = DistLedger.read(ledgerFile, out) ?? refuse('no usable ledger');
  return { ledgerFile, statePath, previous, state, ledger };
}

