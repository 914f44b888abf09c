// The plan of a patch build (patch-build.ts): what changed since the build the event state
// describes, found without loading the model. The state and the previous dist must be the ones
// the state names; every content file other than the event files must be unchanged (by its stat,
// else by its parse's key); the event files changed or added are read, parsed and checked as a
// full build checks them (ids unique against the state's, references to pages, categories and
// media), and the media files resolved again. Anything else refuses (NoPatch): the full build runs.
import { normalizeBaseUrl, type Clock } from '../run.ts';
import { statSync, type BigIntStats } from 'node:fs';
import { readCacheFile } from '../cache/cache-file.ts';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { checkEvents, parseEventFile } from '../../content/events.ts';
import { findContentFiles, readContentFile } from '../../content/files.ts';
import { resolveMediaFiles } from '../../content/media.ts';
import type { FileIssue } from '../../content/problems.ts';
import type { Sourced } from '../../content/records.ts';
import type { Event } from '../../model/types.ts';
import { compareListOrder } from '../../render/event.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { parseKey } from '../cache/build-cache.ts';
import { DistLedger, ledgerPath } from '../ledger/dist-ledger.ts';
import { fileSystemNow, MARGIN_NS, statText, stillFresh } from '../cache/stat-index.ts';
import { eventStatePath, freshStatAt, KEY_BYTES, putStat, readEventState, STAT_FIELDS, type EventState } from './event-state.ts';
import { statFiles } from './stat-files.ts';
import { refuse } from './no-patch.ts';
import { EVENTS_KIND, patchOptions } from './state-recorder.ts';

const NON_EVENT_KINDS = ['site', 'pages', 'categories', 'media', 'directory'] as const;
/** At least this many event files may be parsed by a patch (else 5 % of them). */
const MOST_PARSED = 1000;

/** The most a previous manifest may hold (as out-folder.ts reads it). */
const MANIFEST_LIMIT = 256 * 1024 * 1024;
/** An event state's bound: what does not grow with the site, and a generous most per record. */
const STATE_BASE = 16 << 20;
const STATE_PER_RECORD = 4096;

export interface PatchOptions {
  content: string;
  /** as BuildOptions.onWarning */
  onWarning?: (message: string) => void;
  baseUrl?: string;
  upstream?: string;
  precompress?: boolean;
  minisearch?: boolean;
  edge?: boolean;
  /** rows per part of the event rows (BuildOptions) */
  eventPartRows?: number;
  progress?: (phase: string, done?: number, total?: number) => void;
  /** as BuildOptions.statMarginNs */
  statMarginNs?: bigint;
}

export interface PatchHost {
  out: string;
  cacheDir: string;
  /** the previous build into `out` (previousBuild), read once for the patch and the full build */
  previous: () => PreviousBuild;
  /** the build's phase clock */
  clock: Clock;
}

export interface Plan {
  state: EventState;
  previous: Manifest;
  ledger: DistLedger;
  ledgerFile: string;
  statePath: string;
  content: string;
  baseUrl: string;
  safe: bigint;
  /** the new non-event records (stats refreshed) */
  others: string[];
  /** state file index → new index, -1 for removed files; and the new file list */
  fileMap: Int32Array;
  eventFiles: string[];
  eventStats: BigInt64Array;
  eventKeys: Buffer;
  /** the events of the changed and added files, in list order, with their files' new indexes */
  fresh: Event[];
  freshFiles: number[];
  /** state rows that stay */
  keep: Uint8Array;
  parsed: number;
  removed: number;
  /** every content file */
  contentFiles: number;
}

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
  if (createHash('sha256').update(manifestText).digest('hex') !== state.manifestSha) refuse('the dist is not the one the state describes');
  if (previous.version !== AULA_VERSION) refuse('another aula');
  const ledger = DistLedger.read(ledgerFile, out) ?? refuse('no usable ledger');
  return { ledgerFile, statePath, previous, state, ledger };
}

export async function planPatch(options: PatchOptions, host: PatchHost): Promise<Plan> {
  const content = resolve(options.content);
  const out = host.out;
  const { ledgerFile, statePath, previous, state, ledger } = host.previous();
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? state.site.base_url);
  if (baseUrl !== previous.base_url) refuse('another base URL');
  // taken before any content file is stat'ed: the stats recorded now are judged against it
  const safe = fileSystemNow(dirname(ledgerFile)) ?? refuse('the cache folder cannot be written');

  const margin = options.statMarginNs ?? MARGIN_NS;
  const files = await findContentFiles(content);
  if (files.problems.length > 0 || files.raw.size > 0) refuse('the content folder has problems or raw names');
  const statOf = (file: string): BigIntStats => statSync(join(content, file), { bigint: true });

  // every other file: the same set, each unchanged (by its stat, else by its parse's key)
  const recorded = new Map<string, [string, string]>();
  for (let i = 0; i < state.others.length; i += 3) recorded.set(state.others[i], [state.others[i + 1], state.others[i + 2]]);
  const others: string[] = [];
  let count = 0;
  for (const kind of NON_EVENT_KINDS) {
    for (const file of files[kind]) {
      count++;
      const id = `${kind}\0${file}`;
      const record = recorded.get(id) ?? refuse(`${file} is new`);
      const stat = statOf(file);
      if (!stillFresh({ stat: record[0], key: record[1] }, stat, state.safe, margin)) {
        const read = readContentFile(content, file, undefined, true);
        if (!read.ok || parseKey(kind, file, read.text).toString('hex') !== record[1]) refuse(`${file} changed`);
        others.push(id, statText(read.stat!), record[1]);
      } else others.push(id, record[0], record[1]);
    }
  }
  if (count !== recorded.size) refuse('a content file other than an event file was removed');

  // the event files: unchanged by their stat, else read again (changed or added); the rest removed
  const zone = state.zone;
  if (zone !== state.site.timezone) refuse('the state is of another zone');
  // The loop below runs once per event file (most of a site's files): it is kept to comparisons with
  // the stats taken before it (no path joins, no map look-up, no per-file copies: they took half
  // its time, beside the stats). The listing is sorted, as the state's is, so a file is usually
  // found at its own index (the map is made only when one is not); the stats and keys are copied
  // whole first and only those of files read again are put over them.
  const previousFiles = state.eventFiles;
  let index: Map<string, number> | null = null;
  const fileMap = new Int32Array(previousFiles.length).fill(-1);
  const eventFiles = files.events;
  const eventStats = new BigInt64Array(eventFiles.length * STAT_FIELDS);
  const eventKeys = Buffer.alloc(eventFiles.length * KEY_BYTES);
  const common = Math.min(eventFiles.length, previousFiles.length);
  eventStats.set(state.eventStats.subarray(0, common * STAT_FIELDS));
  state.eventKeys.copy(eventKeys, 0, 0, common * KEY_BYTES);
  const kind = `${EVENTS_KIND}${zone}`;
  // a patch parses without the parse cache: past a few thousand files the full build is quicker
  const most = Math.max(MOST_PARSED, Math.ceil(eventFiles.length * 0.05));
  const records: Sourced<Event>[] = [];
  const recordFiles: number[] = [];
  const reread = new Uint8Array(previousFiles.length);
  const stats = state.eventStats;
  const prefix = join(content, '/');
  // every event file's stat, taken at once on two threads (stat-files.ts)
  const current = await statFiles(eventFiles.map((file) => prefix + file));
  let parsed = 0;
  for (let now = 0; now < eventFiles.length; now++) {
    const file = eventFiles[now];
    const at = now < previousFiles.length && previousFiles[now] === file ? now : (index ??= new Map(previousFiles.map((f, i) => [f, i]))).get(file);
    if (current[now * STAT_FIELDS] < 0n) refuse(`${file} cannot be stat'ed`);
    if (at !== undefined) {
      fileMap[at] = now;
      if (freshStatAt(stats, at, current, now, state.safe, margin)) {
        if (at !== now) {
          eventStats.set(stats.subarray(at * STAT_FIELDS, (at + 1) * STAT_FIELDS), now * STAT_FIELDS);
          state.eventKeys.copy(eventKeys, now * KEY_BYTES, at * KEY_BYTES, (at + 1) * KEY_BYTES);
        }
        continue;
      }
    }
    const read = readContentFile(content, file, undefined, true);
    if (!read.ok) refuse(`${file} cannot be read`);
    // touched, copied, or changed and changed back: the same text is the same events
    const key = parseKey(kind, file, read.text);
    putStat(eventStats, now, read.stat!);
    key.copy(eventKeys, now * KEY_BYTES);
    if (at !== undefined && state.eventStats[at * STAT_FIELDS] >= 0n && key.equals(state.eventKeys.subarray(at * KEY_BYTES, (at + 1) * KEY_BYTES))) continue;
    if (at !== undefined) reread[at] = 1;
    if (++parsed > most) refuse('too many event files changed');
    const result = parseEventFile(file, read.text, zone);
    if (result.problems.length > 0) refuse(`${file} has problems`);
    for (const r of result.records) {
      records.push(r);
      recordFiles.push(now);
    }
  }
  // the rows that stay: those of files neither gone nor read again
  const n = state.rows.id.length;
  const keep = new Uint8Array(n);
  const ids = new Set<number>();
  for (let row = 0; row < n; row++) {
    const f = state.rows.file[row];
    if (fileMap[f] >= 0 && reread[f] === 0) {
      keep[row] = 1;
      ids.add(state.rows.id[row]);
    }
  }
  let removed = 0;
  for (let f = 0; f < fileMap.length; f++) if (fileMap[f] < 0) removed++;

  // the same checks a full build runs on these events: ids unique across all, references known
  const issues: FileIssue[] = [];
  checkEvents(records, { pages: state.pages, categories: new Map(state.categoryIds.map((id) => [id, true])), media: state.media }, issues);
  if (issues.length > 0) refuse('a changed event has problems');
  for (const r of records) {
    if (ids.has(r.value.id)) refuse('a changed event repeats an id');
    if (!Number.isFinite(r.value.start) || !Number.isFinite(r.value.end) || !Number.isFinite(r.value.last_modified)) refuse('an event has no time');
  }
  // the media records are resolved again: a file behind one that changed or moved means a full build
  const media = structuredClone(state.mediaSources);
  await resolveMediaFiles(content, media, issues);
  if (issues.length > 0) refuse('a media file has problems');
  for (const m of media) {
    const before = state.media.get(m.value.media.id);
    if (before === undefined || !sameMedia(before, m.value.media)) refuse('a media file changed');
  }
  host.clock.phase('patch: find changes', 'patch: data');

  const order = records.map((_, i) => i).sort((a, b) => compareListOrder(records[a].value, records[b].value));
  return {
    state, previous, ledger, ledgerFile, statePath, content, baseUrl, safe, others, fileMap, eventFiles, eventStats, eventKeys,
    fresh: order.map((i) => records[i].value),
    freshFiles: order.map((i) => recordFiles[i]),
    keep, parsed, removed,
    contentFiles: count + files.events.length,
  };
}

const sameMedia = (a: object, b: object) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
