// The previous build into --out, as the next build reuses it: its manifest, the event state
// written with it (event-state.ts) and its ledger (ledger/dist-ledger.ts), each proven to be the
// others' and made with the same content folder and options. Read once per build, for the event
// state to stand in for the content (load/state-load.ts) and for the previous data files' reuse
// (render/previous-data.ts).
import { join, resolve } from 'node:path';
import type { Manifest } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { readCacheFile } from '../cache/cache-file.ts';
import { DistLedger, ledgerPath } from '../ledger/dist-ledger.ts';
import { eventStatePath, manifestShaOf, readEventState, type EventState } from './event-state.ts';
import { MANIFEST_LIMIT } from '../out-folder/out-folder.ts';
import { refuse } from './no-patch.ts';
import { patchOptions } from './state-recorder.ts';

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

/** previousBuild, read when first asked for: its answer, or its refusal, every time after. */
export function onePreviousBuild(options: object & { content: string }, out: string, cacheDir: string): () => PreviousBuild {
  let read: (() => PreviousBuild) | null = null;
  return () => {
    if (read === null) {
      try {
        const build = previousBuild(options, out, cacheDir);
        read = () => build;
      } catch (e) {
        read = () => { throw e; };
      }
    }
    return read();
  };
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

