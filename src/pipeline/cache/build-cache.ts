// The build cache: each content file's parse (records and its own problems) under a key of its
// kind, path, identity (cacheIdentity) and exact text, so an unchanged file is not parsed again.
// Checks across files are not cached. The stat index (stat-index.ts) beside the pack lets a file
// whose stat is unchanged be taken without being read.
//
// One pack per content folder: AULACACHE\n <identity>\n, then keyed entries (cache-file.ts) whose
// payloads are v8.serialize'd parses. A foreign pack is ignored whole; an entry is trusted only once its checksum matches, and a
// damaged pack is read up to the damage. Nothing here is ever needed: on any failure the build
// just parses. The pack is never held: payloads are read from the open file when used.
import * as crypto from 'node:crypto';
import { closeSync, existsSync, fstatSync, statSync, type BigIntStats } from 'node:fs';
import { readFully, writeAllv } from '../../util/positional-io.ts';
import { checksum, CHECKSUM } from '../../util/checksum.ts';
import { dirname, join, resolve } from 'node:path';
import { serialize } from 'node:v8';
import type { Parsed } from '../../content/records.ts';
import { DIST_FORMAT } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { fileSystemNow, MARGIN_NS, readStatIndex, statText, stillFresh, writeStatIndex, type StatIndex, type StatRecord } from './stat-index.ts';
import { makeFolders } from '../../util/make-folders.ts';
import { codeVersion } from './code-version.ts';
import { ENTRY_HEAD, ENTRY_KEY_BYTES, openCacheFile, openCacheFileToAppend, openTemporary, putKeyedHead, replaceCacheFile, unlinkQuietly, walkEntries } from './cache-file.ts';
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

/** The cache folder by default: node_modules/.cache/aula of the project the command runs in. */
export function defaultCacheDir(cwd = process.cwd()): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'node_modules', '.cache', 'aula');
    if (dirname(dir) === dir) return join(resolve(cwd), 'node_modules', '.cache', 'aula');
  }
}

/** What the build cache's files hold, as their names start, and how they end (stale-temps.ts knows them by these lists). */
export const CACHE_KINDS = ['parsed', 'rows', 'autocomplete', 'minisearch', 'autocomplete-data', 'dist'] as const;
export const CACHE_ENDINGS = ['bin', 'stat', 'json', 'events'] as const;
const idOf = (path: string) => crypto.createHash('sha256').update(resolve(path)).digest('hex').slice(0, 16);

/** `<kind>-<id>.<ending>`: per content folder (sites sharing a cache must not evict each other), and per out folder for a dist's files. */
export function cacheFile(cacheDir: string, content: string, kind: (typeof CACHE_KINDS)[number], ending: (typeof CACHE_ENDINGS)[number], out?: string): string {
  return join(resolve(cacheDir), `${kind}-${idOf(content)}${out === undefined ? '' : `-${idOf(out)}`}.${ending}`);
}

export const packPath = (cacheDir: string, content: string) => cacheFile(cacheDir, content, 'parsed', 'bin');

interface Slot {
  /** held (made in this build), else at `at` in the pack read */
  payload: Buffer | null;
  at: number;
  length: number;
  /** the payload's checksum as stored, checked before it is trusted */
  sum: Buffer;
  verified: boolean;
  /** in the next pack's file already */
  spilled?: boolean;
}

/**
 * The next pack's file, which entries parsed anew go to as they are made (the serialized records
 * are as large as the content, and must not be held beside the model). `chunk` batches the
 * writes, so each payload is garbage once copied rather than promoted to the old generation.
 */
interface Spill {
  path: string;
  fd: number;
  chunk: Buffer;
  used: number;
}

/** A parse made on a parse thread (BuildCache.adopt): parseKey as hex, v8 payload, its checksum, and statText of the stat taken before the read. */
interface MadeParse {
  key: string;
  payload: Buffer;
  sum: Buffer;
  stat?: string;
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** entries whose bytes did not match their checksum, or did not deserialize */
  corrupt: number;
  /** the pack was present but written by another aula/format/V8, or its header was damaged */
  foreign: boolean;
}

/** A pack as read: `end` its length when read whole as entries (then appendable), else null; `stamp` taken before the read. */
interface PackFile {
  stamp: string;
  end: number | null;
}

/** Opens a pack and finds its entries in one chunked pass; the payloads are read from `fd` when used. */
function openPack(path: string): { slots: Map<string, Slot>; foreign: boolean; file: PackFile | null; fd: number | null } {
  const slots = new Map<string, Slot>();
  const stamp = stampOf(path);
  const fd = openCacheFile(path);
  if (fd === null) return { slots, foreign: false, file: null, fd: null };
  try {
    const size = fstatSync(fd).size;
    const end = walkEntries(fd, size, PACK_HEAD, SCAN_CHUNK, (entry, at) => {
      const sum = Buffer.from(entry.subarray(ENTRY_KEY_BYTES, ENTRY_HEAD - 4));
      slots.set(entry.toString('hex', 0, ENTRY_KEY_BYTES), { payload: null, at, length: entry.readUInt32LE(ENTRY_HEAD - 4), sum, verified: false });
    });
    if (end === null) {
      closeSync(fd);
      return { slots, foreign: true, file: null, fd: null };
    }
    return { slots, foreign: false, file: { stamp, end: end === size ? end : null }, fd };
  } catch {
    closeSync(fd);
    return { slots: new Map(), foreign: false, file: null, fd: null };
  }
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

const stampOf = (path: string) => {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '';
  }
};

export class BuildCache {
  readonly stats: CacheStats = { hits: 0, misses: 0, corrupt: 0, foreign: false };
  /** files taken by their stat alone, without reading them */
  unread = 0;
  private previous: Map<string, Slot>;
  /** the last build's stat index; none without a content folder or when unusable */
  private statIndex: StatIndex | null = null;
  /** this build's stat index: `safe` null when stats cannot be trusted or kept */
  private nextStats: { safe: bigint | null; records: Map<string, StatRecord>; changed: boolean };
  private next = new Map<string, Slot>();
  /** by kind: `file NUL key` of every file parsed or taken from the cache in this build */
  private readonly inputs = new Map<string, string[]>();
  private spill: Spill | null | 'failed' = null;
  /** the pack read, if it may be appended to */
  private readonly file: PackFile | null;
  /** the pack read, open: the payloads of its entries are read from it when used */
  private fd: number | null = null;
  /** keys of the entries parsed anew and held (not spilled), and their payloads' bytes */
  private fresh: string[] = [];
  private freshBytes = 0;

  /** `content`: the content folder's full path; without it no stat index is kept. `tuning`: tests set 0s. */
  constructor(
    private readonly path: string,
    private readonly content?: string,
    private readonly tuning: { racyMarginNs?: bigint; holdBytes?: number } = {},
  ) {
    const read = openPack(path);
    this.previous = read.slots;
    this.stats.foreign = read.foreign;
    this.file = read.file;
    this.fd = read.fd;
    let safe: bigint | null = null;
    if (content !== undefined) {
      try {
        makeFolders(dirname(path));
        // taken before any content file is stat'ed: what this build records is judged against it
        safe = fileSystemNow(dirname(path));
      } catch {
        safe = null;
      }
      if (!this.stats.foreign) this.statIndex = readStatIndex(statPath(path), cacheIdentity(), content);
    }
    this.nextStats = { safe, records: new Map(), changed: false };
  }

  /** The cached parse of a file whose stat is as recorded, without reading it; undefined: read it and call parse(). */
  unchanged<T>(kind: string, file: string, path: string | Buffer): Parsed<T> | undefined {
    const index = this.statIndex;
    if (index === null || this.nextStats.safe === null) return undefined;
    const id = `${kind}\0${file}`;
    const record = index.records.get(id);
    if (record === undefined) return undefined;
    let stat: BigIntStats | undefined;
    try {
      stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (stat === undefined || !stat.isFile() || !stillFresh(record, stat, index.safe, this.tuning.racyMarginNs ?? MARGIN_NS)) return undefined;
    const slot = this.next.get(record.key) ?? this.previous.get(record.key);
    if (slot === undefined) return undefined;
    const value = this.open(slot);
    if (value === undefined) {
      this.previous.delete(record.key); // counted corrupt once; parsed anew after a read
      return undefined;
    }
    this.stats.hits++;
    this.unread++;
    this.next.set(record.key, slot);
    this.addInput(kind, file, record.key);
    this.nextStats.records.set(id, record);
    return value as Parsed<T>;
  }

  /** A slot's parse, its checksum checked once; undefined (and counted) when it is damaged. */
  private open(slot: Slot): Parsed<unknown> | undefined {
    let value: unknown;
    try {
      const payload = this.payloadOf(slot);
      if (!slot.verified && !checksum(payload).equals(slot.sum)) throw new Error('checksum');
      slot.verified = true;
      value = decodeParse(payload, true);
    } catch {
      value = undefined;
    }
    if (isParsed(value)) return value;
    this.stats.corrupt++;
    return undefined;
  }

  /** A slot's payload: held, or read from the pack. */
  private payloadOf(slot: Slot): Buffer {
    if (slot.payload !== null) return slot.payload;
    if (this.fd === null) throw new Error('no pack');
    const payload = Buffer.allocUnsafe(slot.length);
    if (readFully(this.fd, payload, 0, slot.length, slot.at) !== slot.length) throw new Error('cut');
    return payload;
  }

  private addInput(kind: string, file: string, key: string): void {
    if (!INPUT_KINDS.has(kind)) return; // events' would be a string each, held through the load
    const inputs = this.inputs.get(kind);
    if (inputs) inputs.push(`${file}\0${key}`);
    else this.inputs.set(kind, [`${file}\0${key}`]);
  }

  /** The cached parse of `text`, or `parse()`'s, kept. `stat`: taken before the read, for the next unchanged(). */
  parse<T>(kind: string, file: string, text: string, parse: () => Parsed<T>, stat?: BigIntStats): Parsed<T> {
    const key = parseKey(kind, file, text).toString('hex');
    this.addInput(kind, file, key);
    this.recordStat(`${kind}\0${file}`, stat && statText(stat), key);
    const slot = this.next.get(key) ?? this.previous.get(key);
    if (slot) {
      const value = this.open(slot);
      if (value !== undefined) {
        this.stats.hits++;
        this.next.set(key, slot);
        return value as Parsed<T>;
      }
    }
    const parsed = parse();
    // serialized now: later checks may add to the records (resolved media paths, expansions)
    const payload = serialize(parsed);
    this.keep(key, payload, checksum(payload));
    return parsed;
  }

  /** A parse made on a parse thread, kept as parse() keeps one; textless where the payload holds texts apart (the rows hold them). */
  adopt<T>(kind: string, file: string, made: MadeParse): Parsed<T> {
    this.addInput(kind, file, made.key);
    this.recordStat(`${kind}\0${file}`, made.stat, made.key);
    this.keep(made.key, made.payload, made.sum);
    return decodeParse(made.payload, false) as Parsed<T>;
  }

  /** A miss, kept: held to be appended at save, or past HOLD_BYTES spilled to the next pack's file. */
  private keep(key: string, payload: Buffer, sum: Buffer): void {
    this.stats.misses++;
    this.next.set(key, { payload, at: 0, length: payload.length, sum, verified: true });
    this.fresh.push(key);
    this.freshBytes += payload.length;
    if (this.spill !== null || this.freshBytes > (this.tuning.holdBytes ?? HOLD_BYTES)) this.spillFresh();
  }

  /** Moves the held new entries to the next pack's file (where it cannot, they stay held). */
  private spillFresh(): void {
    for (const key of this.fresh) {
      const slot = this.next.get(key)!;
      if (!this.spillEntry(key, slot.sum, slot.payload!)) return;
      this.next.set(key, { payload: null, at: 0, length: slot.length, sum: slot.sum, verified: true, spilled: true });
    }
    this.fresh = [];
    this.freshBytes = 0;
  }

  private recordStat(id: string, stat: string | undefined, key: string): void {
    const next = this.nextStats;
    if (next.safe === null) return;
    next.changed = true;
    if (stat === undefined) next.records.delete(id);
    else next.records.set(id, { stat, key });
  }

  /** The next pack's file, begun with the pack's head at the first call; null when it cannot be written. */
  private spillFile(): Spill | null {
    if (this.spill === 'failed') return null;
    if (this.spill !== null) return this.spill;
    try {
      makeFolders(dirname(this.path));
      const { path, fd } = openTemporary(this.path);
      const chunk = Buffer.allocUnsafe(SPILL_CHUNK);
      return (this.spill = { path, fd, chunk, used: PACK_HEAD.copy(chunk, 0) });
    } catch {
      this.spill = 'failed';
      return null;
    }
  }

  /** Appends an entry to the next pack's file; false when there is none (the entry is then held). */
  private spillEntry(key: string, sum: Buffer, payload: Buffer): boolean {
    const spill = this.spillFile();
    if (spill === null) return false;
    try {
      const need = ENTRY_HEAD + payload.length;
      if (spill.used + need > spill.chunk.length) flushSpill(spill);
      const parts = entryParts(key, sum, payload);
      if (need > spill.chunk.length) writeAllv(spill.fd, parts);
      else for (const part of parts) spill.used += part.copy(spill.chunk, spill.used);
      return true;
    } catch {
      this.dropSpill();
      this.spill = 'failed';
      return false;
    }
  }

  private dropSpill(): void {
    if (this.spill === null || this.spill === 'failed') return;
    try {
      closeSync(this.spill.fd);
    } catch {
      // closed already
    }
    unlinkQuietly(this.spill.path);
    this.spill = null;
  }

  /** One key of every file of `kind` this build read and its content: what the directory indexes depend on. */
  inputsKey(kind: string): Buffer {
    if (!INPUT_KINDS.has(kind)) throw new Error(`the build cache keeps no inputs of ${kind} files`);
    return inputsKeyOf(kind, this.inputs.get(kind) ?? []);
  }

  /** This build's stat records (kind NUL file → stat, key) and the time they are judged by; null when none are kept. Before release(). */
  statRecords(): { safe: bigint; records: ReadonlyMap<string, StatRecord> } | null {
    return this.nextStats.safe === null ? null : { safe: this.nextStats.safe, records: this.nextStats.records };
  }

  /** Lets go of every entry (after save): the model is built, the bytes are not needed any more. */
  release(): void {
    this.closePack();
    this.previous = new Map();
    this.next = new Map();
    this.statIndex = null;
    this.nextStats.records = new Map();
    this.dropSpill();
  }

  /** Writes the pack (only the entries this build used), then the stat index, which names only keys of that pack. */
  save(): void {
    if (this.savePack()) this.saveStats();
    this.closePack();
  }

  private closePack(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch {
      // closed already
    }
    this.fd = null;
  }

  /**
   * Appends, or writes anew into the spill file and renames it over (a crash leaves the old pack or
   * the new). False when it could not: a spill that failed lost entries, so the old pack stays.
   */
  private savePack(): boolean {
    if (this.stats.misses === 0 && this.next.size === this.previous.size && !this.stats.foreign) {
      this.dropSpill();
      return true;
    }
    if (this.spill === null && this.appendFresh()) return true;
    const spill = this.spillFile();
    if (spill === null) return false;
    for (const [key, slot] of this.next) {
      if (slot.spilled) continue;
      let payload: Buffer;
      try {
        payload = this.payloadOf(slot);
      } catch {
        continue; // unreadable now: left out (the file is parsed again next time)
      }
      if (!this.spillEntry(key, slot.sum, payload)) return false;
    }
    this.spill = null; // its file is the new pack's, renamed into place or removed
    return replaceCacheFile(this.path, () => flushSpill(spill), spill);
  }

  /**
   * Appends the new entries when the pack is still the file read whole and would hold at most a
   * quarter of unused entries. A crash leaves a cut entry at the end: the next read stops there.
   */
  private appendFresh(): boolean {
    const file = this.file;
    if (this.stats.foreign || file === null || file.end === null || stampOf(this.path) !== file.stamp) return false;
    let live = PACK_HEAD.length;
    for (const slot of this.next.values()) live += ENTRY_HEAD + slot.length;
    const total = file.end + this.fresh.length * ENTRY_HEAD + this.freshBytes;
    if ((total - live) * 4 > total) return false;
    try {
      const fd = openCacheFileToAppend(this.path);
      if (fd === null) return false; // a link, or not a file: written anew below, by a rename
      try {
        writeAllv(
          fd,
          this.fresh.flatMap((key) => entryParts(key, this.next.get(key)!.sum, this.next.get(key)!.payload!)),
        );
      } finally {
        closeSync(fd);
      }
    } catch {
      return false; // the pack may now end in a cut entry: written anew below
    }
    return true;
  }

  private saveStats(): void {
    const { safe, records, changed } = this.nextStats;
    const same = !changed && records.size === this.statIndex?.records.size;
    if (this.content === undefined || safe === null || same || records.size === 0) return;
    writeStatIndex(statPath(this.path), cacheIdentity(), this.content, { safe, records });
  }
}

/** BuildCache.inputsKey over `file NUL key` strings (the load over the prior makes them from its records). */
export function inputsKeyOf(kind: string, inputs: readonly string[]): Buffer {
  const hash = crypto.createHash('sha256').update(`${cacheIdentity()}\0${kind}\0`);
  for (const input of [...inputs].sort()) hash.update(`${input}\n`);
  return hash.digest();
}

const INPUT_KINDS: ReadonlySet<string> = new Set(['directory']);

export const statPath = (pack: string) => pack.replace(/\.bin$/, '') + '.stat';

const SCAN_CHUNK = 8 << 20;
const SPILL_CHUNK = 8 << 20;
const HOLD_BYTES = 16 << 20;

function entryParts(key: string, sum: Buffer, payload: Buffer): Buffer[] {
  const head = Buffer.allocUnsafe(ENTRY_HEAD);
  putKeyedHead(head, 0, Buffer.from(key, 'hex'), sum, payload.length);
  return [head, payload];
}

function flushSpill(spill: Spill): void {
  if (spill.used > 0) writeAllv(spill.fd, [spill.chunk.subarray(0, spill.used)]);
  spill.used = 0;
}
