// The build cache: each content file's parsed and validated records (and its own problems), kept
// under a key made of the file's kind, path, the context its parse depends on (the site's zone
// for events) and its exact text, so an unchanged file is neither parsed nor validated again.
// Checks across files are not cached: they always run over the whole model.
//
// Beside the pack, a stat index (stat-index.ts) maps each file to its stat and key: a file whose
// stat has not changed is taken from the pack without being read or hashed.
//
// One pack file per content folder holds the entries:
//   AULACACHE\n {"cache":…,"aula":…,"format":…,"v8":…}\n   then per entry:
//   "AUe1" | key (32 bytes) | payload length (u32 LE) | checksum of the payload (4, util/checksum.ts) | payload (v8.serialize)
// A pack written by another aula, dist format or V8 is foreign and ignored whole. An entry is
// trusted only when its checksum matches when it is used; a corrupt one is a miss (parsed anew),
// and a truncated or garbled pack is read up to the damage. Nothing in the cache is ever needed:
// reading or writing it may fail, and the build then just parses.
//
// The pack is not held: its entries are found by one pass over it, and each payload is read from
// the open file when used. A build that parsed a few files anew appends their entries; one that
// left a quarter of the pack unused, or parsed more than HOLD_BYTES anew, writes it anew.
import * as crypto from 'node:crypto';
import { closeSync, existsSync, fstatSync, statSync, type BigIntStats } from 'node:fs';
import { readFully, writeAllv } from '../../util/positional-io.ts';
import { checksum, CHECKSUM, CHECKSUM_BYTES } from '../../util/checksum.ts';
import { dirname, join, resolve } from 'node:path';
import { serialize } from 'node:v8';
import type { Parsed } from '../../content/records.ts';
import { DIST_FORMAT } from '../../store/format/manifest.ts';
import { AULA_VERSION } from '../../version.ts';
import { fileSystemNow, MARGIN_NS, readStatIndex, statText, stillFresh, writeStatIndex, type StatIndex, type StatRecord } from './stat-index.ts';
import { makeFolders } from '../../util/make-folders.ts';
import { codeVersion } from './code-version.ts';
import { chunkReader, openCacheFile, openCacheFileToAppend, openTemporary, replaceCacheFile, unlinkQuietly } from './cache-file.ts';
import { decodeParse } from './parse-payload.ts';

const MAGIC = Buffer.from('AULACACHE\n');
const ENTRY = Buffer.from('AUe1');
const KEY_BYTES = 32;
/** The length of an entry's payload checksum (util/checksum.ts). */
export const SUM_BYTES = CHECKSUM_BYTES;
const ENTRY_HEAD = ENTRY.length + KEY_BYTES + 4 + SUM_BYTES;

/** What a pack must declare to be read: anything else was written by another build of aula. */
export function cacheIdentity(): string {
  return IDENTITY;
}
// The payloads are v8.serialize's, whose format is Node's and V8's: their versions, not V8's
// cachedDataVersionTag(), which also hashes the process's V8 flags: `aula build` sets one
// (heap-policy.ts), and its packs must stay readable by `aula dev` and by any build run without
// it. The time-zone data and ICU versions are in it too: events' offsets and folded texts are
// made with Intl, whose data a Node linked to the system's ICU takes from there (a tzdata update
// changes them without a new Node).
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
export const CACHE_KINDS = ['parsed', 'rows', 'autocomplete', 'minisearch', 'dist'] as const;
export const CACHE_ENDINGS = ['bin', 'stat', 'json', 'events'] as const;
const idOf = (path: string) => crypto.createHash('sha256').update(resolve(path)).digest('hex').slice(0, 16);

/**
 * A file of the build cache, `<kind>-<id>.<ending>`: of one content folder (two sites sharing a
 * cache folder must not evict each other) and, for a dist's own files, one out folder as well.
 */
export function cacheFile(cacheDir: string, content: string, kind: (typeof CACHE_KINDS)[number], ending: (typeof CACHE_ENDINGS)[number], out?: string): string {
  return join(resolve(cacheDir), `${kind}-${idOf(content)}${out === undefined ? '' : `-${idOf(out)}`}.${ending}`);
}

/** The pack of one content folder. */
export const packPath = (cacheDir: string, content: string) => cacheFile(cacheDir, content, 'parsed', 'bin');

interface Slot {
  /** the payload when held (a fresh serialization, or kept by a dev session); else in the pack */
  payload: Buffer | null;
  /** where the payload starts in the pack read, and its length */
  at: number;
  length: number;
  /** the payload's checksum as stored; checked before the payload is trusted */
  sum: Buffer;
  verified: boolean;
  /** written to the next pack's file already (the payload is not held) */
  spilled?: boolean;
}

/**
 * Entries parsed anew in a one-off build go to the next pack's file as they are made, so the
 * serialized records (as large as the content) are not held beside the model; save() then
 * appends the entries taken from the old pack and renames the file over it.
 */
interface Spill {
  path: string;
  fd: number;
  /**
   * Entries are copied into this buffer, written out when full: each payload is garbage as soon
   * as it is copied. (Held until a write, they would be promoted to the old generation, and their
   * backing stores, as large as the pack, freed only by full collections.)
   */
  chunk: Buffer;
  used: number;
}

/** A file's parse made elsewhere, serialized (BuildCache.adopt). */
export interface MadeParse {
  /** parseKey of the file's kind, name and text, as hex */
  key: string;
  /** v8.serialize of the Parsed */
  payload: Buffer;
  /** the payload's checksum (util/checksum.ts) */
  sum: Buffer;
  /** statText of the file's stat, taken before its text was read; none: read again next time */
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

/**
 * A pack as read: `end` is its length when every byte of it was read as entries (new entries may
 * then be appended to it), else null; `stamp` (stampOf) was taken before the read.
 */
interface PackFile {
  stamp: string;
  end: number | null;
}

/** Reads a pack's entries (where they are, not their payloads) by hex key; foreign or unreadable packs give none. */
export function readPack(path: string): { slots: Map<string, Slot>; foreign: boolean; file: PackFile | null } {
  const pack = openPack(path);
  if (pack.fd !== null) closeSync(pack.fd);
  return pack;
}

/**
 * Opens a pack and finds its entries, reading it in chunks without keeping the payloads: they
 * are read from `fd` when used (a pack is as large as the content, which a build must not hold).
 */
function openPack(path: string): { slots: Map<string, Slot>; foreign: boolean; file: PackFile | null; fd: number | null } {
  const slots = new Map<string, Slot>();
  const stamp = stampOf(path);
  const fd = openCacheFile(path);
  if (fd === null) return { slots, foreign: false, file: null, fd: null };
  try {
    const size = fstatSync(fd).size;
    const bytesAt = chunkReader(fd, size, SCAN_CHUNK);
    if (!bytesAt(0, PACK_HEAD.length)?.equals(PACK_HEAD)) {
      closeSync(fd);
      return { slots, foreign: true, file: null, fd: null };
    }
    let at = PACK_HEAD.length;
    for (;;) {
      const entry = bytesAt(at, ENTRY_HEAD);
      if (entry === null || !entry.subarray(0, ENTRY.length).equals(ENTRY)) break; // the end, or garbled from here on
      const key = entry.toString('hex', ENTRY.length, ENTRY.length + KEY_BYTES);
      const length = entry.readUInt32LE(ENTRY.length + KEY_BYTES);
      const sum = Buffer.from(entry.subarray(ENTRY.length + KEY_BYTES + 4));
      if (at + ENTRY_HEAD + length > size) break; // truncated
      slots.set(key, { payload: null, at: at + ENTRY_HEAD, length, sum, verified: false });
      at += ENTRY_HEAD + length;
    }
    return { slots, foreign: false, file: { stamp, end: at === size ? at : null }, fd };
  } catch {
    closeSync(fd);
    return { slots: new Map(), foreign: false, file: null, fd: null };
  }
}

// SHA-256 of a few parts end to end, for the keys and hashes made once per content file or row
// (parseKey, the rows' keys and hashes): there a Hash object's making, updates and digest cost
// several times the hashing itself (the parts are a few KB at most, and the CPU hashes in hardware). The
// parts are copied into one buffer and hashed in one call (crypto.hash, Node 20.12+; a Hash where
// it is missing). The digest is the same as a Hash's over the same bytes.
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash;

/** The parts copied end to end: grows to the largest, kept for the next call (one per thread). */
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

/**
 * The key of one file's parse: everything its result depends on. `text` is the file's text, or its
 * bytes as read (readContentFile's `bytes`), which give the same key: the text is their UTF-8 but
 * for a leading byte order mark, left out here as the decoder leaves it out. (Hashed as bytes, the
 * text is not encoded again.)
 */
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

  /**
   * `content`: the content folder's full path; without it no stat index is read or kept (every
   * file is read and hashed).
   */
  constructor(
    private readonly path: string,
    private readonly content?: string,
    private readonly tuning: {
      /** how much older than the build a file's times must be to trust its stat (tests set 0) */
      racyMarginNs?: bigint;
      /** bytes of new entries held before the pack is written anew as they come (tests set 0) */
      holdBytes?: number;
    } = {},
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

  /**
   * The cached parse of a file whose stat is the one recorded when it was read for the last
   * build, without reading it; undefined when the file must be read (then `parse` follows).
   */
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
    // only the kinds inputsKey is asked for: the events' would be a string each, held through the load
    if (!INPUT_KINDS.has(kind)) return;
    const inputs = this.inputs.get(kind);
    if (inputs) inputs.push(`${file}\0${key}`);
    else this.inputs.set(kind, [`${file}\0${key}`]);
  }

  /**
   * The cached parse of `text`, or `parse()`'s result, which is then kept for the next build.
   * `stat`: the file's stat taken before `text` was read, recorded for the next build's
   * unchanged(); absent, the file will be read again.
   */
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

  /**
   * A parse made on another thread (parse-pool.ts), as parse() would have made and kept it: its
   * key, its serialization and that payload's checksum, and the file's stat (statText) taken
   * before its text was read. The records returned are a copy of the payload's, as a cached
   * parse's are, but textless where the payload carries its events' texts apart (parse-payload.ts):
   * the thread's rows hold them.
   */
  adopt<T>(kind: string, file: string, made: MadeParse): Parsed<T> {
    this.addInput(kind, file, made.key);
    this.recordStat(`${kind}\0${file}`, made.stat, made.key);
    this.keep(made.key, made.payload, made.sum);
    return decodeParse(made.payload, false) as Parsed<T>;
  }

  /** A parse made in this build (a miss), kept for the next: held, or written to the next pack's file. */
  private keep(key: string, payload: Buffer, sum: Buffer): void {
    this.stats.misses++;
    // A few new entries are held, to be appended to the pack at save; past HOLD_BYTES the pack
    // is written anew, so they go to its file as they are made (a one-off build must not hold
    // them all beside the model).
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

  /** `stat`: statText of the file's stat (none: the file is read again next time) */
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

  /**
   * One key for every file of `kind` this build read, with its content: what everything made from
   * those files alone (the directory indexes) depends on.
   */
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

  /**
   * Writes the entries this build used (so the pack does not grow with every edit) beside the
   * old pack, then renames it over: a crash leaves the old pack or the new one, never half. Then
   * the stat index, which names only keys of the pack just written.
   */
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
   * False when the pack could not be written (the stat index is then left as it was). Written
   * anew, the pack is the spill file: the entries spilled as they were made, then every other
   * entry this build used, renamed over the old pack.
   */
  private savePack(): boolean {
    if (this.stats.misses === 0 && this.next.size === this.previous.size && !this.stats.foreign) {
      this.dropSpill();
      return true;
    }
    if (this.spill === null && this.appendFresh()) return true;
    // (a read-only or full disk costs the next build its speed, never its result; a spill that
    // failed lost entries: better no new pack than one missing them, and the old one stays)
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
   * Appends the new entries to the pack read, when it is still the file read, was read whole, and
   * would then hold at most a quarter of entries no build uses: one edit then writes its entry,
   * not the whole pack again. A crash while appending leaves a cut entry at the end, which the
   * next read stops at (and the next save then writes the pack anew).
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

/** The key of every file of `kind` a build read, each `file NUL key` (hex): BuildCache.inputsKey, and the load over the prior from its records. */
export function inputsKeyOf(kind: string, inputs: readonly string[]): Buffer {
  const hash = crypto.createHash('sha256').update(`${cacheIdentity()}\0${kind}\0`);
  for (const input of [...inputs].sort()) hash.update(`${input}\n`);
  return hash.digest();
}

/** The kinds of files whose inputs (name and key) are kept for inputsKey: what the directory indexes are made of. */
const INPUT_KINDS: ReadonlySet<string> = new Set(['directory']);

/** The stat index beside a pack. */
export const statPath = (pack: string) => pack.replace(/\.bin$/, '') + '.stat';

const SCAN_CHUNK = 8 << 20;
const SPILL_CHUNK = 8 << 20;
const HOLD_BYTES = 16 << 20;

function entryParts(key: string, sum: Buffer, payload: Buffer): Buffer[] {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(payload.length);
  return [ENTRY, Buffer.from(key, 'hex'), length, sum, payload];
}

function flushSpill(spill: Spill): void {
  if (spill.used > 0) writeAllv(spill.fd, [spill.chunk.subarray(0, spill.used)]);
  spill.used = 0;
}
