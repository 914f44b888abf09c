// The build cache's files of keyed entries, the parse pack and the rows file: a head naming the code
// and format that wrote it, then per entry
//   key (32) | checksum of the payload (4, util/checksum.ts) | payload length (u32 LE) | payload
// A stage asks get(key) for what it stored under its inputs' key, or computes it and put()s it. A
// file with another head is ignored whole; an entry is trusted once its checksum matches; a damaged
// or cut file is read up to the damage. Nothing in one is ever needed: on any failure the value is
// computed anew. Payloads stay in the file until asked for.
//
// Entries put go to the next file as they come (a temporary beside the file, or one the parse
// threads wrote entries into: adopt), never held beside the model. seal() appends them to the file
// read while it is whole, unchanged and at most a quarter unused; else it writes the entries used
// after them and renames the next file over. A crash leaves the old file, the new one, or a cut
// entry at the end, where the next read stops.
import { closeSync, fstatSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { checksum, CHECKSUM_BYTES } from '../../util/checksum.ts';
import { makeFolders } from '../../util/make-folders.ts';
import { readFully, writeAllAt, writeAllv } from '../../util/positional-io.ts';
import { identityOf, openCacheFile, openCacheFileToAppend, openTemporary, unlinkQuietly } from './cache-file.ts';

export const ENTRY_KEY_BYTES = 32;
export const ENTRY_HEAD = ENTRY_KEY_BYTES + CHECKSUM_BYTES + 4;

/** Writes an entry's head into `out` at `at`; its payload follows it. */
export function putKeyedHead(out: Buffer, at: number, key: Uint8Array, sum: Uint8Array, length: number): void {
  out.set(key, at);
  out.set(sum, at + ENTRY_KEY_BYTES);
  out.writeUInt32LE(length, at + ENTRY_KEY_BYTES + CHECKSUM_BYTES);
}

/** A file of entries being written (begun with the head): where they end, renamed into place by keepAs. */
export interface NextFile {
  fd: number;
  end: number;
  keepAs(path: string): boolean;
}

/** A next file of the build's own: `kept` once renamed into place; drop() closes it, removed unless kept. */
export interface OwnNextFile extends NextFile {
  kept: boolean;
  drop(): void;
}

/** A temporary beside `path`, begun with `head`, to become it. Throws when none can be made. */
export function beginNext(path: string, head: Buffer): OwnNextFile {
  makeFolders(dirname(path));
  const temporary = openTemporary(path, 'wx+');
  const file: OwnNextFile = {
    fd: temporary.fd,
    end: head.length,
    kept: false,
    keepAs(target) {
      try {
        renameSync(temporary.path, target);
      } catch {
        return false;
      }
      return (file.kept = true);
    },
    drop() {
      closeSync(file.fd);
      if (!file.kept) unlinkQuietly(temporary.path);
    },
  };
  try {
    writeAllAt(file.fd, head, 0);
  } catch (e) {
    file.drop();
    throw e;
  }
  return file;
}

/**
 * A store's intact entries as another thread finds them (KeyedStore.sharedIndex): the file read's
 * descriptor, and a table of `slots` (a power of two; each 0 or an entry's number + 1, at its key's
 * first 4 bytes, probed onward) over the entries' `keys` (32 bytes each), where each entry's head
 * is in the file (`places`, f64) and its payload's length as checked when the file was read
 * (`lengths`, u32: a head rewritten since cannot make a reader read more).
 */
export interface SharedIndex {
  fd: number;
  slots: SharedArrayBuffer;
  keys: SharedArrayBuffer;
  places: SharedArrayBuffer;
  lengths: SharedArrayBuffer;
}

/**
 * The payload stored under `key` in the file `index` shares, read there (on any thread); null when
 * there is none, it cannot be read, or its head or checksum does not match (the caller makes it anew).
 */
export function storedAt(index: SharedIndex, key: Uint8Array): Buffer | null {
  const slots = new Uint32Array(index.slots);
  const keys = Buffer.from(index.keys);
  const mask = slots.length - 1;
  const wanted = Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  for (let slot = wanted.readUInt32LE(0) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
    const i = slots[slot] - 1;
    if (keys.compare(wanted, 0, ENTRY_KEY_BYTES, i * ENTRY_KEY_BYTES, (i + 1) * ENTRY_KEY_BYTES) !== 0) continue;
    const at = new Float64Array(index.places)[i];
    try {
      const head = Buffer.allocUnsafe(ENTRY_HEAD);
      if (readFully(index.fd, head, 0, ENTRY_HEAD, at) !== ENTRY_HEAD || !head.subarray(0, ENTRY_KEY_BYTES).equals(wanted)) return null;
      const length = new Uint32Array(index.lengths)[i];
      if (head.readUInt32LE(ENTRY_HEAD - 4) !== length) return null;
      const payload = Buffer.allocUnsafe(length);
      if (readFully(index.fd, payload, 0, length, at + ENTRY_HEAD) !== length) return null;
      return checksum(payload).equals(head.subarray(ENTRY_KEY_BYTES, ENTRY_HEAD - 4)) ? payload : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** An entry of the file read: where its head is, its payload's length, whether this build used it, and its payload's first bytes as kept (null: damaged). */
interface Entry {
  at: number;
  length: number;
  used: boolean;
  held: Buffer | null;
}

/** Bytes read or written at once. */
const CHUNK = 8 << 20;
const NOTHING = Buffer.alloc(0);

export class KeyedStore {
  /** the file held another head (another aula, format or Node) */
  readonly foreign: boolean = false;
  /** entries asked for whose payload did not match its checksum */
  corrupt = 0;
  private entries = new Map<string, Entry>();
  /** the file read, open while entries are read from it */
  fd: number | null = null;
  /** the file as read: its size, its entries' end (null: unusable), its stamp */
  private size = 0;
  private end: number | null = null;
  private readonly stamp: string | null;
  private next: NextFile | null = null;
  /** the next file when it is this store's (an adopted one is its owner's) */
  private own: OwnNextFile | null = null;
  /** a write to the next file failed: it lacks entries, and the file read stays */
  private failed = false;
  /** not walked: every entry counts as used */
  private unwalked = false;
  /** bytes of the next file's entries this build uses (an adopted file may hold more) */
  private fresh = 0;
  private pending = NOTHING;
  private pendingBytes = 0;
  private shared: SharedIndex | null = null;

  /**
   * Opens `path` and checks its entries in one chunked pass, when at most `most` bytes; `held`
   * bytes of each payload's start are kept (peek). `index` false: not read (nothing is asked of
   * it), only appended to while its head is `head`.
   */
  constructor(
    private readonly path: string,
    private readonly head: Buffer,
    { most = Number.MAX_SAFE_INTEGER, held = 0, index = true }: { most?: number; held?: number; index?: boolean } = {},
  ) {
    this.stamp = identityOf(path);
    const fd = openCacheFile(path);
    if (fd === null) return;
    try {
      this.size = fstatSync(fd).size;
      const start = Buffer.alloc(head.length);
      if (readFully(fd, start, 0, head.length, 0) !== head.length || !start.equals(head)) {
        this.foreign = true;
      } else if (!index) {
        [this.end, this.unwalked] = [this.size, true];
      } else if (this.size <= most) {
        this.end = this.walk(fd, held);
        this.fd = fd;
        return;
      }
    } catch {
      this.entries.clear();
      this.end = null;
    }
    closeSync(fd);
  }

  /** Indexes and checks the entries; returns where they end (`size` when the last is whole). */
  private walk(fd: number, held: number): number {
    let chunk = Buffer.allocUnsafe(Math.min(this.size, CHUNK));
    let [from, to] = [0, 0];
    let at = this.head.length;
    /** whether bytes [at, at + n) are in the chunk, read when not */
    const fill = (n: number) => {
      if (at + n <= to) return true;
      if (at + n > this.size) return false;
      if (chunk.length < n) chunk = Buffer.allocUnsafe(n);
      from = at;
      to = at + readFully(fd, chunk, 0, Math.min(chunk.length, this.size - at), at);
      return at + n <= to;
    };
    while (fill(ENTRY_HEAD)) {
      const length = chunk.readUInt32LE(at - from + ENTRY_HEAD - 4);
      if (!fill(ENTRY_HEAD + length)) break; // cut short: what came before stands
      const start = at - from;
      const payload = chunk.subarray(start + ENTRY_HEAD, start + ENTRY_HEAD + length);
      const intact = checksum(payload).equals(chunk.subarray(start + ENTRY_KEY_BYTES, start + ENTRY_HEAD - 4));
      const kept = !intact ? null : held === 0 ? NOTHING : Buffer.from(payload.subarray(0, held));
      this.entries.set(chunk.toString('latin1', start, start + ENTRY_KEY_BYTES), { at, length, used: false, held: kept });
      at += ENTRY_HEAD + length;
    }
    return at;
  }

  /** Entries found (for tests). */
  get count(): number {
    return this.entries.size;
  }

  /** Whether the file was read to its end. */
  get whole(): boolean {
    return this.end !== null && this.end === this.size;
  }

  /** The intact entry under `key`, marked used; null (damage counted) when there is none. */
  private entry(key: Uint8Array): Entry | null {
    const entry = this.entries.get(Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1'));
    if (entry === undefined || this.fd === null) return null;
    if (entry.held === null) {
      this.corrupt++;
      return null;
    }
    entry.used = true;
    return entry;
  }

  /** The payload stored under `key`; null when there is none, or it is damaged. */
  get(key: Uint8Array): Buffer | null {
    const entry = this.entry(key);
    if (entry === null) return null;
    const payload = Buffer.allocUnsafe(entry.length);
    if (readFully(this.fd!, payload, 0, entry.length, entry.at + ENTRY_HEAD) === entry.length) return payload;
    entry.used = false;
    return null;
  }

  /** Marks the intact entry under `key` used (its payload read elsewhere: sharedIndex()); false when there is none. */
  use(key: Uint8Array): boolean {
    return this.entry(key) !== null;
  }

  /**
   * The intact entries' keys and places, for other threads to read payloads from the file read
   * (storedAt): an open-addressed table in shared memory, made once. Null when the file is not open.
   */
  sharedIndex(): SharedIndex | null {
    if (this.fd === null) return null;
    if (this.shared !== null) return this.shared;
    const intact = [...this.entries.entries()].filter(([, e]) => e.held !== null);
    let size = 16;
    while (size < intact.length * 2) size *= 2;
    const index: SharedIndex = {
      fd: this.fd,
      slots: new SharedArrayBuffer(size * 4),
      keys: new SharedArrayBuffer(intact.length * ENTRY_KEY_BYTES),
      places: new SharedArrayBuffer(intact.length * 8),
      lengths: new SharedArrayBuffer(intact.length * 4),
    };
    const slots = new Uint32Array(index.slots);
    const keys = Buffer.from(index.keys);
    const places = new Float64Array(index.places);
    const lengths = new Uint32Array(index.lengths);
    intact.forEach(([key, entry], i) => {
      keys.write(key, i * ENTRY_KEY_BYTES, 'latin1');
      places[i] = entry.at;
      lengths[i] = entry.length;
      let slot = keys.readUInt32LE(i * ENTRY_KEY_BYTES) & (size - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      slots[slot] = i + 1;
    });
    return (this.shared = index);
  }

  /** The first `held` bytes of the payload under `key` and where it is in `fd`, its rest left there; null as get(). */
  peek(key: Uint8Array): { held: Buffer; at: number; length: number } | null {
    const entry = this.entry(key);
    return entry && { held: entry.held!, at: entry.at + ENTRY_HEAD, length: entry.length };
  }

  /** Stores `payload` (its parts end to end) under `key`; `sum` its checksum when known. False when it could not. */
  put(key: Uint8Array, payload: readonly Uint8Array[], sum: Uint8Array = checksum(...payload)): boolean {
    if (this.failed || this.nextFile() === null) return false;
    const length = payload.reduce((n, p) => n + p.byteLength, 0);
    try {
      if (this.pendingBytes + ENTRY_HEAD + length > this.pending.length) this.flush();
      if (ENTRY_HEAD + length > this.pending.length) this.pending = Buffer.allocUnsafe(Math.max(CHUNK, ENTRY_HEAD + length));
      putKeyedHead(this.pending, this.pendingBytes, key, sum, length);
      this.pendingBytes += ENTRY_HEAD;
      for (const p of payload) this.pendingBytes += Buffer.from(p.buffer, p.byteOffset, p.byteLength).copy(this.pending, this.pendingBytes);
      this.fresh += ENTRY_HEAD + length;
      return true;
    } catch {
      this.failed = true;
      return false;
    }
  }

  /** Takes `file` as the next file; `used` the bytes of its entries this build uses. Its owner closes it. */
  adopt(file: NextFile, used: number): void {
    if (this.next !== null) return;
    this.next = file;
    this.fresh = used;
  }

  /** The next file, begun at the first call; null when none can be made. */
  private nextFile(): NextFile | null {
    if (this.next !== null || this.failed) return this.next;
    try {
      return (this.next = this.own = beginNext(this.path, this.head));
    } catch {
      this.failed = true;
      return null;
    }
  }

  private flush(): void {
    if (this.pendingBytes === 0 || this.next === null) return;
    writeAllAt(this.next.fd, this.pending.subarray(0, this.pendingBytes), this.next.end);
    this.next.end += this.pendingBytes;
    this.pendingBytes = 0;
  }

  /** Writes what this build put and used: appended, or a new file renamed into place. False when the file is left as it was. */
  seal(): boolean {
    try {
      this.flush();
      if (this.failed) return false;
      let live = this.unwalked ? this.size : this.head.length;
      for (const entry of this.entries.values()) if (entry.used) live += ENTRY_HEAD + entry.length;
      const added = this.next === null ? 0 : this.next.end - this.head.length;
      const total = (this.end ?? 0) + added;
      if (this.whole && !this.foreign && identityOf(this.path) === this.stamp && (total - live - this.fresh) * 4 <= total) {
        if (this.fresh === 0 || this.appendNext()) return true;
      }
      if (this.next === null && live === this.head.length) return true; // nothing to keep
      const next = this.nextFile();
      if (next === null) return false;
      this.copyUsed(next);
      return next.keepAs(this.path);
    } catch {
      return false;
    } finally {
      this.close();
    }
  }

  /** Appends the next file's entries to the file read; false when it could not (it may then end in a cut entry). */
  private appendNext(): boolean {
    const fd = openCacheFileToAppend(this.path);
    if (fd === null) return false;
    try {
      copy(this.next!.fd, this.head.length, this.next!.end, fd, null);
      return true;
    } catch {
      return false;
    } finally {
      closeSync(fd);
    }
  }

  /** Copies the used entries of the file read to the end of `next`, neighbours at once. */
  private copyUsed(next: NextFile): void {
    if (this.fd === null) return;
    let [from, to] = [0, 0];
    for (const { at, length, used } of [...this.entries.values()].sort((a, b) => a.at - b.at)) {
      if (!used) continue;
      if (at !== to) [next.end, from] = [next.end + copy(this.fd, from, to, next.fd, next.end), at];
      to = at + ENTRY_HEAD + length;
    }
    next.end += copy(this.fd, from, to, next.fd, next.end);
  }

  /** Lets go of the file read and of what was put and not sealed. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.shared = null;
    this.entries = new Map();
    this.own?.drop();
    this.next = this.own = null;
    this.pending = NOTHING;
  }
}

/** Copies bytes [from, to) of `source` to `target` at `at` (null: appended); returns their count. */
function copy(source: number, from: number, to: number, target: number, at: number | null): number {
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK, to - from));
  for (let done = 0; done < to - from; ) {
    const n = readFully(source, chunk, 0, Math.min(chunk.length, to - from - done), from + done);
    if (n === 0) throw new Error('cut');
    if (at === null) writeAllv(target, [chunk.subarray(0, n)]);
    else writeAllAt(target, chunk.subarray(0, n), at + done);
    done += n;
  }
  return to - from;
}
