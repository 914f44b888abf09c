// The build cache: each content file's parse (records and its own problems) under a key of its
// kind, path, identity (cacheIdentity) and exact text, so an unchanged file is not parsed again.
// Checks across files are not cached. Which file is unchanged by its stat, so that its parse is taken
// by its recorded key without a read, the stat record tells (load/stat-table.ts).
//
// One pack per content folder: a keyed store (keyed-store.ts) headed AULACACHE\n <identity>\n whose
// payloads are parses (parse-payload.ts). Nothing here is ever needed: on any failure the build
// just parses.
import * as crypto from 'node:crypto';
import { closeSync, existsSync, readdirSync, readSync, unlinkSync } from 'node:fs';
import { CHECKSUM } from '../../util/checksum.ts';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { serialize } from 'node:v8';
import type { Parsed } from '../../content/records.ts';
import { DIST_FORMAT } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { isRunning } from '../../util/process-alive.ts';
import { codeVersion } from './code-version.ts';
import { openCacheFile } from './cache-file.ts';
import { KeyedStore, type SharedIndex } from './keyed-store.ts';
import { decodeParse } from './parse-payload.ts';

const MAGIC = Buffer.from('AULACACHE\n');

/** What a pack must declare to be read: anything else was written by another build of aula. */
export function cacheIdentity(): string {
  return IDENTITY;
}
// Node's and V8's versions, not cachedDataVersionTag(): that hashes the V8 flags too, which `aula
// build` sets and `aula dev` does not. tz and ICU: Intl makes offsets and folded texts, and a
// system ICU changes them without a new Node.
const IDENTITY = JSON.stringify({
  code: codeVersion(), aula: AULA_VERSION, format: DIST_FORMAT, node: process.version, v8: process.versions.v8,
  tz: process.versions.tz ?? '', icu: process.versions.icu ?? '', unicode: process.versions.unicode ?? '', sum: CHECKSUM,
});
/** What a pack starts with. */
const PACK_HEAD = Buffer.concat([MAGIC, Buffer.from(`${IDENTITY}\n`)]);

/**
 * The cache folder by default: node_modules/.cache/aula of the project the command runs in. Outside
 * any project (no package.json up to the root), the user's cache folder (`$XDG_CACHE_HOME`, else
 * ~/.cache), one per working folder: a node_modules made where there was none would become the
 * folder npm installs into from below. A relative `$XDG_CACHE_HOME` is ignored, as the XDG
 * specification says; with no home folder to be found there is no cache (undefined), which a
 * build never needs.
 */
export function defaultCacheDir(cwd = process.cwd(), env = process.env): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'node_modules', '.cache', 'aula');
    if (dirname(dir) !== dir) continue;
    const home = isAbsolute(env.XDG_CACHE_HOME ?? '') ? env.XDG_CACHE_HOME! : homeCache(env);
    return home === undefined ? undefined : join(home, 'aula', idOf(cwd));
  }
}

/** ~/.cache, where the home folder is known and absolute (`HOME`, else the user's entry in the system's user database). */
function homeCache(env: NodeJS.ProcessEnv): string | undefined {
  let home = env.HOME;
  if (home === undefined) {
    try {
      home = homedir();
    } catch {
      return undefined;
    }
  }
  return isAbsolute(home) ? join(home, '.cache') : undefined;
}

/** What the build cache's files hold, as their names start, and how they end (removeStaleTemps knows them by these lists). */
export const CACHE_KINDS = ['parsed', 'rows', 'autocomplete', 'minisearch', 'autocomplete-data', 'dist'] as const;
export const CACHE_ENDINGS = ['bin', 'json', 'events'] as const;
const idOf = (path: string) => crypto.createHash('sha256').update(resolve(path)).digest('hex').slice(0, 16);

/** `<kind>-<id>.<ending>`: per content folder (sites sharing a cache must not evict each other), and per out folder for a dist's files. */
export function cacheFile(cacheDir: string, content: string, kind: (typeof CACHE_KINDS)[number], ending: (typeof CACHE_ENDINGS)[number], out?: string): string {
  return join(resolve(cacheDir), `${kind}-${idOf(content)}${out === undefined ? '' : `-${idOf(out)}`}.${ending}`);
}

export const packPath = (cacheDir: string, content: string) => cacheFile(cacheDir, content, 'parsed', 'bin');

/**
 * A parse a parse thread answered (BuildCache.adopt): parseKey as hex, v8 payload, its checksum, and
 * statText of the stat taken before the read. `stored`: the thread found the key in the pack
 * (sharedIndex) and made the payload of the parse stored there, not of a parse of its own.
 */
interface MadeParse {
  key: string;
  payload: Buffer;
  sum?: Buffer;
  stat?: string;
  stored?: boolean;
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** entries whose bytes did not match their checksum, or did not deserialize */
  corrupt: number;
  /** the pack was present but written by another aula/format/V8, or its header was damaged */
  foreign: boolean;
}

// For keys made once per file or row, a Hash object costs more than the hashing of a few KB: the
// parts are copied into one buffer and hashed in one call (crypto.hash, Node 20.12+; a Hash before).
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash;
let hashScratch = Buffer.allocUnsafeSlow(4096);

/** SHA-256 of `parts` end to end. */
export function sha256(...parts: Uint8Array[]): Buffer {
  if (!oneShot) {
    const hash = crypto.createHash('sha256');
    for (const part of parts) hash.update(part);
    return hash.digest();
  }
  if (parts.length === 1) return oneShot('sha256', parts[0], 'buffer');
  const length = parts.reduce((n, part) => n + part.byteLength, 0);
  if (length > hashScratch.length) hashScratch = Buffer.allocUnsafeSlow(Math.max(length, hashScratch.length * 2));
  let at = 0;
  for (const part of parts) {
    hashScratch.set(part, at);
    at += part.byteLength;
  }
  return oneShot('sha256', hashScratch.subarray(0, at), 'buffer');
}

/** The key of one file's parse. `text` as a string, or its bytes as read: the same key (a leading BOM is left out, as the decoder drops it). */
export function parseKey(kind: string, file: string, text: string | Uint8Array): Buffer {
  const bom = typeof text !== 'string' && text.length >= 3 && text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf;
  return sha256(Buffer.from(`${cacheIdentity()}\0${kind}\0${file}\0`), typeof text === 'string' ? Buffer.from(text) : bom ? text.subarray(3) : text);
}

const isParsed = (v: unknown): v is Parsed<unknown> =>
  typeof v === 'object' && v !== null && Array.isArray((v as Parsed<unknown>).records) && Array.isArray((v as Parsed<unknown>).problems);

export class BuildCache {
  readonly stats: CacheStats = { hits: 0, misses: 0, corrupt: 0, foreign: false };
  private readonly pack: KeyedStore;
  /** payloads intact and not a parse */
  private undecodable = 0;

  constructor(path: string) {
    this.pack = new KeyedStore(path, PACK_HEAD);
    this.stats.foreign = this.pack.foreign;
  }

  /** The parse stored under `key` (hex) for `file`, as parse() would take it; undefined when there is none or it is damaged. */
  take<T>(kind: string, file: string, key: string): Parsed<T> | undefined {
    return this.open(key) as Parsed<T> | undefined;
  }

  /** The parse stored under `key` (hex), counted a hit; undefined when there is none or it is damaged (counted). */
  private open(key: string): Parsed<unknown> | undefined {
    const payload = this.pack.get(Buffer.from(key, 'hex'));
    let value: unknown;
    try {
      value = payload === null ? undefined : decodeParse(payload, true);
    } catch {
      value = undefined;
    }
    if (payload !== null && !isParsed(value)) this.undecodable++;
    this.stats.corrupt = this.pack.corrupt + this.undecodable;
    if (!isParsed(value)) return undefined;
    this.stats.hits++;
    return value;
  }

  /** The cached parse of a text whose key (parseKey) is `key`, or `parse()`'s, kept. */
  parse<T>(kind: string, file: string, key: Buffer, parse: () => Parsed<T>): Parsed<T> {
    const cached = this.open(key.toString('hex'));
    if (cached !== undefined) return cached as Parsed<T>;
    const parsed = parse();
    // serialized now: later checks may add to the records (resolved media paths, expansions)
    this.stats.misses++;
    this.pack.put(key, [serialize(parsed)]);
    return parsed;
  }

  /**
   * A parse a parse thread answered, kept as parse() keeps one: a hit when it was the pack's own
   * (its entry kept), else a new entry; textless where the payload holds texts apart (the rows hold them).
   */
  adopt<T>(kind: string, file: string, made: MadeParse): Parsed<T> {
    const key = Buffer.from(made.key, 'hex');
    if (made.stored && this.pack.use(key)) this.stats.hits++;
    else {
      this.stats.misses++;
      this.pack.put(key, [made.payload], made.sum);
    }
    return decodeParse(made.payload, false) as Parsed<T>;
  }

  /** Where other threads find the pack's parses by key (KeyedStore.sharedIndex); null when it is not open. */
  sharedIndex(): SharedIndex | null {
    return this.pack.sharedIndex();
  }

  /** Lets go of every entry (after save): the model is built, the bytes are not needed any more. */
  release(): void {
    this.pack.close();
  }

  /** Writes the pack (only the entries this build used). The stats recorded may then name keys it lacks: such a file is read. */
  save(): void {
    this.pack.seal();
  }
}

/** One key of a set of files of `kind` with their texts, in any order: of `file NUL key` strings (key: the file's parse key, hex). What the directory's indexes depend on. */
export function inputsKeyOf(kind: string, inputs: readonly string[]): Buffer {
  const hash = crypto.createHash('sha256').update(`${cacheIdentity()}\0${kind}\0`);
  for (const input of [...inputs].sort()) hash.update(`${input}\n`);
  return hash.digest();
}

// Temporaries a stopped build left in the cache folder (a keyed store's next file is as large as the
// content), removed as each caching build starts. Only names the build cache makes
// (openTemporary's `<cache file>.<pid>[-<12 hex>].tmp`, the clock probe) whose pid runs no more.
const ID = '[0-9a-f]{16}';
const TEMPORARY = new RegExp(
  `^(?:(?:${CACHE_KINDS.join('|')})-${ID}(?:-${ID})?\\.(?:${CACHE_ENDINGS.join('|')})|stat-probe)\\.([0-9]+)(?:-[0-9a-f]{12})?\\.tmp$`,
);

/**
 * Files earlier versions kept, by name and how they begin: the stat index beside the pack
 * (`AULASTAT<n>\n` …: the event state holds its records now), and the render cache's rows
 * (`AULAROWS\n` …: an unchanged event's row is the previous dist's, others are rendered).
 */
const RETIRED: readonly [RegExp, RegExp][] = [
  [new RegExp(`^parsed-${ID}\\.stat$`), /^AULASTAT[0-9]+\n/],
  [new RegExp(`^rows-${ID}\\.bin$`), /^AULAROWS\n/],
];

/** Whether `name` in `dir` is a retired file: a regular file (not followed through a link) that begins as one. */
function retired(dir: string, name: string): boolean {
  const head = RETIRED.find(([named]) => named.test(name))?.[1];
  if (head === undefined) return false;
  const fd = openCacheFile(join(dir, name));
  if (fd === null) return false;
  try {
    const start = Buffer.alloc(16);
    return head.test(start.toString('latin1', 0, readSync(fd, start, 0, start.length, 0)));
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Returns the names removed (and a retired file's). */
export function removeStaleTemps(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no folder yet, or not readable: nothing to do
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(TEMPORARY.exec(name)?.[1] ?? Number.NaN);
    if ((!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) && !retired(dir, name)) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // gone already, or not ours to remove after all (read-only folder)
    }
  }
  return removed;
}
