// The build's prior: the previous build into --out (its manifest, event state and ledger, each
// proven the others' and of the same content and options), read once before the content. Where
// it is refused, the build is over an empty base: every content file is parsed.
import { join, resolve } from 'node:path';
import type { Manifest } from '../../store/format/manifest.ts';
import { readCacheFile } from '../cache/cache-file.ts';
import { distCacheFile } from '../cache/cache-folder.ts';
import { DistLedger } from '../ledger/dist-ledger.ts';
import { eventStatePath, manifestShaOf, readEventState, type EventState } from './event-state.ts';
import type { Names } from '../../util/shared-names.ts';
import { MANIFEST_LIMIT } from '../out-folder/out-folder.ts';
import { stableJson } from '../../util/stable-json.ts';

/**
 * Every option but the callbacks, as one string: a build over the state needs the same. None is
 * picked out, so a new option is in it already; changing one that shapes nothing costs a whole build.
 */
export function patchOptions(o: object): string {
  return stableJson(Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v !== 'function' && v !== undefined)));
}

const STATE_BASE = 16 << 20;
const STATE_PER_RECORD = 4096;

/**
 * The previous build, proven, or none and why: refused where any part is missing or not the
 * others'. `namesRead`: whether `names`, read from the state file before (cli/early-stats.ts), are
 * the state's.
 */
export function readPrior(options: object & { content: string; cache?: string }, out: string, names?: Names) {
  if (options.cache === undefined) return { build: null, reason: 'no cache' };
  try {
    const ledgerFile = distCacheFile(options.cache, options.content, out);
    const manifestText = readCacheFile(join(out, 'manifest.json'), MANIFEST_LIMIT) ?? refuse('no previous manifest');
    const previous = JSON.parse(manifestText.toString('utf8')) as Manifest;
    const described = ['events', 'pages', 'categories', 'media'].reduce((n, k) => n + (Number(previous.counts?.[k as 'events']) || 0), 0);
    const { state, names: text } = readEventState(eventStatePath(ledgerFile), resolve(options.content), out, STATE_BASE + described * STATE_PER_RECORD) ?? refuse('no usable event state');
    if (state.options !== patchOptions(options)) refuse('other build options');
    if (manifestShaOf(manifestText) !== state.manifestSha) refuse('the dist is not the one the state describes');
    const ledger = DistLedger.read(ledgerFile, out) ?? refuse('no usable ledger');
    // (compared here: the state file's bytes are let go once read)
    const namesRead = names !== undefined && names.count === state.eventCount && Buffer.from(names.bytes.buffer, names.bytes.byteOffset, names.bytes.byteLength).equals(text);
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
