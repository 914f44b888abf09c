// The build's prior: the previous build into --out (its manifest, event state and ledger, each
// proven the others' and of the same content and options), read once before the content. Where
// it is refused, the build is over an empty base: every content file is parsed.
import { join, resolve } from 'node:path';
import type { Manifest } from '../../store/format/manifest.ts';
import { readCacheFile } from '../cache/cache-file.ts';
import { distCacheFile } from '../cache/cache-folder.ts';
import { DistLedger } from '../ledger/dist-ledger.ts';
import { eventStatePath, manifestShaOf, openEventState, stateMost, stateOf } from './event-state.ts';
import type { NamesFile } from '../../util/names-file.ts';
import { MANIFEST_LIMIT } from '../out-folder/out-folder.ts';
import { stableJson } from '../../util/stable-json.ts';

/**
 * Every option but the callbacks, as one string: a build over the state needs the same. None is
 * picked out, so a new option is in it already; changing one that shapes nothing costs a whole build.
 */
export function patchOptions(o: object): string {
  return stableJson(Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v !== 'function' && v !== undefined)));
}

/**
 * The previous build, proven, or none and why: refused where any part is missing or not the
 * others'. `early`: the state file as read from the command's start (cli/early-stats.ts), taken
 * where it is this dist's (`namesRead`: its names are then the ones stat'ed).
 */
export function readPrior(options: object & { content: string; cache?: string }, out: string, early?: NamesFile | null) {
  if (options.cache === undefined) return { build: null, reason: 'no cache' };
  try {
    const ledgerFile = distCacheFile(options.cache, options.content, out);
    const manifestText = readCacheFile(join(out, 'manifest.json'), MANIFEST_LIMIT) ?? refuse('no previous manifest');
    const previous = JSON.parse(manifestText.toString('utf8')) as Manifest;
    const described = ['events', 'pages', 'categories', 'media'].reduce((n, k) => n + (Number(previous.counts?.[k as 'events']) || 0), 0);
    const [content, most] = [resolve(options.content), stateMost(described)];
    // the state read as the command started, where it is this dist's (another build may have written one since)
    const taken = early != null && early.names.bytes.length + early.body.length <= most ? stateOf(early, content, out) : null;
    const earlyState = taken?.manifestSha === manifestShaOf(manifestText) ? taken : null;
    const state = earlyState ?? stateOf(openEventState(eventStatePath(ledgerFile), most), content, out) ?? refuse('no usable event state');
    if (state.options !== patchOptions(options)) refuse('other build options');
    if (manifestShaOf(manifestText) !== state.manifestSha) refuse('the dist is not the one the state describes');
    const ledger = DistLedger.read(ledgerFile, out) ?? refuse('no usable ledger');
    const namesRead = earlyState !== null;
    return { build: { previous, state, ledger, namesRead }, reason: null };
  } catch (e) {
    return { build: null, reason: refusal(e) };
  }
}
export type Prior = ReturnType<typeof readPrior>;
export type PreviousBuild = NonNullable<Prior['build']>;

// Why the prior cannot stand in for the content, thrown before anything is staged: the content is
// then loaded whole, which reports any problem. `refusal` is the build's `patch.reason`.
export class NoPatch extends Error {}

export function refuse(reason: string): never {
  throw new NoPatch(reason);
}

export const refusal = (e: unknown) => (e instanceof NoPatch ? e.message : `unexpected: ${(e as Error).message}`);
