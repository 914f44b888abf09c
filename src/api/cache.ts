// A bounded LRU of finished answers, so that a URL asked for over and over costs a map lookup.
// Answers are pure functions of (path, query, Accept) over one dataset; a new dataset gets a
// new cache, so nothing here is ever stale.
//
// Admission (TinyLFU): an answer is kept on its key's second request while the key is still
// remembered (a "doorkeeper"), and once the cache is full only when its key was asked for more
// often lately, before this request, than the answer it would evict (a small sketch counts every
// request; "lately" is ten requests per answer held, or a row of the sketch's counters). Under a stream of one-off queries (every
// URL different: crawlers, filters typed letter by letter) or a cycle of more keys than the cache
// holds (a plain LRU then evicts every answer before it is asked for again) storing each answer
// would cost a copy and an eviction and win no hit; here a one-off costs a hash and four
// counters, and the answers kept stay until hotter come.
import { bodyByteLength, detachedBody, dropKeptBody, heldBytes, keptBody, keptBytes, lentBackBody } from './body.ts';
import type { ApiResponse } from './respond.ts';

export interface CacheLimits {
  entries: number;
  bytes: number;
}

/**
 * 32 MB bounds what the cache can add to a server process (bench/results.md, "Memory"). The
 * count of entries bounds small answers apart: it is high enough that small answers (autocomplete,
 * a few KiB each) fill about the bytes that event pages do, rather than a small share of them
 * while a type-ahead's distinct queries come and go. An entry's own objects (headers, key) are not
 * counted in its bytes: about a KiB of heap each, so the count bounds them too.
 */
export const DEFAULT_CACHE_LIMITS: CacheLimits = { entries: 8_192, bytes: 32 * 1024 * 1024 };

const weight = (key: string, r: ApiResponse) => key.length * 2 + (typeof r.body === 'string' ? r.body.length * 2 : bodyByteLength(r.body));

/** FNV-1a over UTF-16 code units: a cheap 32-bit fingerprint of a key. */
function fingerprint(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * The keys seen recently, as fingerprints in a ring: the oldest is forgotten when a new one comes.
 * A collision only admits an answer one sighting early. The fingerprints remembered are found in
 * an open-addressing table of typed arrays at most half full (a Set of numbers is a hash table
 * too, but an entry's lookup, deletion and insertion on every one-off request each walk its
 * buckets and entries, and its deleted entries are compacted now and then): a lookup is a probe
 * or two, a forgotten fingerprint's slot is filled again by moving its followers back.
 */
export class Doorkeeper {
  private readonly ring: Int32Array;
  private next = 0;
  private filled = 0;
  /** the remembered fingerprints, each in the first free slot from its home on */
  private readonly slots: Int32Array;
  /** 1 where `slots` holds one */
  private readonly taken: Uint8Array;
  private readonly mask: number;
  private readonly shift: number;

  constructor(capacity: number) {
    this.ring = new Int32Array(Math.max(1, capacity));
    let bits = 1;
    while (1 << bits < this.ring.length * 2) bits++;
    this.slots = new Int32Array(1 << bits);
    this.taken = new Uint8Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  /** True when the key with fingerprint `f` was seen since it was last forgotten; remembers it either way. */
  check(f: number): boolean {
    const { slots, taken, mask } = this;
    let i = this.home(f);
    while (taken[i] === 1) {
      if (slots[i] === f) return true;
      i = (i + 1) & mask;
    }
    // only unseen fingerprints enter the ring, so each slot holds a distinct live one
    if (this.filled === this.ring.length) {
      this.forget(this.ring[this.next]);
      // forgetting may have moved a follower into the free slot found above
      i = this.home(f);
      while (taken[i] === 1) i = (i + 1) & mask;
    } else this.filled++;
    slots[i] = f;
    taken[i] = 1;
    this.ring[this.next] = f;
    this.next = this.next + 1 === this.ring.length ? 0 : this.next + 1;
    return false;
  }

  private home(f: number): number {
    return Math.imul(f, 0x9e3779b1) >>> this.shift;
  }

  /** Frees `f`'s slot, moving back each follower whose home does not lie after the freed slot. */
  private forget(f: number): void {
    const { slots, taken, mask } = this;
    let i = this.home(f);
    while (slots[i] !== f || taken[i] === 0) i = (i + 1) & mask;
    taken[i] = 0;
    for (let j = (i + 1) & mask; taken[j] === 1; j = (j + 1) & mask) {
      const k = this.home(slots[j]);
      // j's fingerprint may move to i unless its home lies cyclically in (i, j]
      if (i <= j ? i < k && k <= j : i < k || k <= j) continue;
      slots[i] = slots[j];
      taken[i] = 1;
      taken[j] = 0;
      i = j;
    }
  }
}

/** odd multipliers that spread one fingerprint over the sketch's four rows */
const ROW_SEEDS = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f];
const MAX_COUNT = 15;

/**
 * How often each key was asked for recently: a count-min sketch of four rows of small saturating
 * counters, all halved once a window of sightings has passed, so that the past fades. Its size is
 * fixed at construction; a collision only overestimates a key's count. The window is ten
 * sightings per counter in a row unless its owner sets a shorter one (`window`).
 */
export class FrequencySketch {
  private readonly table: Uint8Array;
  private readonly shift: number;
  private readonly width: number;
  private readonly longest: number;
  private period: number;
  private added = 0;

  constructor(keys: number) {
    let bits = 4;
    // at most 2^20 counters a row: 4 MiB, whatever the limits
    while (1 << bits < keys && bits < 20) bits++;
    this.width = 1 << bits;
    this.shift = 32 - bits;
    this.table = new Uint8Array(this.width * 4);
    this.longest = this.period = this.width * 10;
  }

  /**
   * Sets how many sightings pass between two halvings: at most ten per counter in a row, and at
   * least one, since each halving is a pass over every counter (four rows): a shorter window made
   * that pass the larger part of a cached answer's cost (a cache of one answer halved its 256 KiB
   * every eighty requests).
   */
  set window(sightings: number) {
    this.period = Math.min(this.longest, Math.max(this.width, sightings));
  }

  /** Counts one sighting of the key with fingerprint `f`; returns its count, this one included. */
  add(f: number): number {
    const t = this.table;
    const i0 = this.slot(f, 0), i1 = this.slot(f, 1), i2 = this.slot(f, 2), i3 = this.slot(f, 3);
    const min = Math.min(t[i0], t[i1], t[i2], t[i3]);
    if (min < MAX_COUNT) {
      // conservative update: only the counters at the minimum grow, so a collision inflates less
      if (t[i0] === min) t[i0]++;
      if (t[i1] === min) t[i1]++;
      if (t[i2] === min) t[i2]++;
      if (t[i3] === min) t[i3]++;
    }
    if (++this.added >= this.period) this.age();
    return min + 1;
  }

  /** The count of the key with fingerprint `f`. */
  count(f: number): number {
    const t = this.table;
    return Math.min(t[this.slot(f, 0)], t[this.slot(f, 1)], t[this.slot(f, 2)], t[this.slot(f, 3)]);
  }

  private slot(f: number, row: number): number {
    return row * this.width + (Math.imul(f, ROW_SEEDS[row]) >>> this.shift);
  }

  private age(): void {
    const t = this.table;
    for (let i = 0; i < t.length; i++) t[i] >>= 1;
    this.added >>= 1;
  }
}

/**
 * "Lately", for admission: the sketch's counts are halved once ten sightings per answer the cache
 * holds have passed (TinyLFU's sample), never less than a row of the sketch's counters (see
 * FrequencySketch.window): at the default limits the row (65,536) decides until the cache holds
 * some 6,500 answers, so for event pages the window is the row; past that it follows the answers
 * held, not the most entries. Over a longer window an answer that
 * was hot before (a count of 15) outweighs every new key, however hot, for as long as the window
 * takes to pass: ten sightings per counter of the sketch.
 */
const SIGHTINGS_PER_ENTRY = 10;

interface Entry {
  key: string;
  response: ApiResponse;
  weight: number;
  /** the key's fingerprint, so that a hit counts in the sketch without hashing the key again */
  fingerprint: number;
  /** asked for since it was stored or last passed over by eviction (CLOCK's reference bit) */
  used: boolean;
  /** its key was stored again: no longer in the cache, passed over where the queue meets it */
  replaced: boolean;
}

/**
 * Entries oldest first, as a ring of slots that grows by doubling: eviction takes from the front
 * and a second chance goes to the back, each a step. A Map's own order cannot do this: each
 * `entries().next()` walks over every entry deleted from the front since V8 last rehashed the
 * table, so a sweep past thousands of entries asked for since the last costs their square.
 */
class EntryQueue {
  private slots: (Entry | undefined)[] = new Array<Entry | undefined>(16).fill(undefined);
  private head = 0;
  length = 0;

  get front(): Entry | undefined {
    return this.length === 0 ? undefined : this.slots[this.head];
  }

  shift(): Entry | undefined {
    if (this.length === 0) return undefined;
    const entry = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) & (this.slots.length - 1);
    this.length--;
    return entry;
  }

  push(entry: Entry): void {
    if (this.length === this.slots.length) {
      const grown = new Array<Entry | undefined>(this.slots.length * 2).fill(undefined);
      for (let i = 0; i < this.length; i++) grown[i] = this.slots[(this.head + i) & (this.slots.length - 1)];
      this.slots = grown;
      this.head = 0;
    }
    this.slots[(this.head + this.length) & (this.slots.length - 1)] = entry;
    this.length++;
  }
}

/**
 * LRU by "second chance" (CLOCK): a hit only sets a flag on its entry, where a strict LRU moved
 * the key to the back on every hit (a delete and an insert, with the key hashed twice); eviction
 * walks from the oldest and moves a flagged entry to the back instead of dropping it.
 */
export class ResponseCache {
  private readonly map = new Map<string, Entry>();
  /** the entries in eviction order, and entries replaced since they were queued */
  private readonly order = new EntryQueue();
  /** entries in `order` replaced: dropped from it once they outnumber the cache's own */
  private replaced = 0;
  private bytes = 0;
  /** remembers four times as many keys as the cache holds answers */
  private readonly doorkeeper: Doorkeeper;
  /** counts eight times as many */
  private readonly sketch: FrequencySketch;

  /**
   * `pooled`: bodies are kept on the page pool's blocks and given back when dropped (keptBody),
   * for a caller that pins a body it has not finished writing (the server, transport.ts); else
   * each kept body is a copy of its own.
   */
  constructor(
    private readonly limits: CacheLimits = DEFAULT_CACHE_LIMITS,
    private readonly pooled = false,
  ) {
    this.doorkeeper = new Doorkeeper(limits.entries * 4);
    this.sketch = new FrequencySketch(limits.entries * 8);
  }

  /** Stores the answer when its key has earned a place (see Admission above). */
  offer(key: string, response: ApiResponse): void {
    if (this.limits.entries <= 0) return;
    const f = fingerprint(key);
    const count = this.sketch.add(f);
    if (!this.doorkeeper.check(f)) return;
    // weighed as set() will hold it: a pooled body by its whole block, or an answer that evicts
    // another would pass for one that fits and be stored without the comparison below
    const held = this.pooled && typeof response.body !== 'string' ? key.length * 2 + keptBytes(response.body) : weight(key, response);
    if (this.map.size >= this.limits.entries || this.bytes + held > this.limits.bytes) {
      // the entry eviction drops first stands for what the answer would displace; this request
      // is left out of the count, or in a cycle every key would displace the next one due (a
      // victim not yet asked for in this turn counts one less) before it is asked for again
      const victim = this.victim();
      if (victim !== undefined && this.sketch.count(victim.fingerprint) >= count - 1) return;
    }
    this.set(key, response, f);
  }

  /**
   * The entry eviction would drop first: CLOCK's hand moves each entry asked for since it last
   * came by to the back, as set() does. Weighed against the oldest entry instead, a candidate
   * met a hot answer that eviction keeps, and lost to it for as long as the answer stayed hot.
   */
  private victim(): Entry | undefined {
    for (let turns = this.order.length; turns > 0; turns--) {
      const entry = this.order.front!;
      if (entry.replaced) {
        this.order.shift();
        this.replaced--;
      } else if (!entry.used) return entry;
      else {
        entry.used = false;
        this.order.push(this.order.shift()!);
      }
    }
    while (this.order.front?.replaced) {
      this.order.shift();
      this.replaced--;
    }
    return this.order.front;
  }

  /** The queue without its replaced entries, in the same order. */
  private dropReplaced(): void {
    for (let n = this.order.length; n > 0; n--) {
      const entry = this.order.shift()!;
      if (!entry.replaced) this.order.push(entry);
    }
    this.replaced = 0;
  }

  get(key: string): ApiResponse | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    hit.used = true;
    this.sketch.add(hit.fingerprint);
    return hit.response;
  }

  /**
   * Stores the answer; a body on the server's reusable page buffers is copied first (or, pooled,
   * taken over), since the server gives those back once the answer that borrowed them is written.
   */
  set(key: string, response: ApiResponse, f = fingerprint(key)): void {
    if (weight(key, response) > this.limits.bytes / 8) return;
    const body = this.pooled ? keptBody(response.body) : detachedBody(response.body);
    const kept = body === response.body ? response : { ...response, body };
    // what the entry holds: a kept body's whole block
    const size = key.length * 2 + (typeof body === 'string' ? body.length * 2 : heldBytes(body));
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      old.replaced = true;
      this.replaced++;
      this.bytes -= old.weight;
      if (old.response.body !== body) dropKeptBody(old.response.body);
    }
    const stored: Entry = { key, response: kept, weight: size, fingerprint: f, used: false, replaced: false };
    this.map.set(key, stored);
    // eviction alone drops a replaced entry: a cache that is not full keeps every one queued
    if (this.replaced > this.map.size) this.dropReplaced();
    this.order.push(stored);
    this.bytes += size;
    // each entry is passed over at most once per call: the second time round it is dropped
    while (this.map.size > this.limits.entries || this.bytes > this.limits.bytes) {
      const entry = this.order.shift()!;
      if (entry.replaced) {
        this.replaced--;
        continue;
      }
      if (entry.used && entry !== stored) {
        entry.used = false;
        this.order.push(entry);
      } else {
        this.map.delete(entry.key);
        this.bytes -= entry.weight;
        // the answer being stored, dropped at once: a block taken over is still the server's to write and release
        if (entry.response === response) lentBackBody(entry.response.body);
        else dropKeptBody(entry.response.body);
      }
    }
    this.sketch.window = SIGHTINGS_PER_ENTRY * this.map.size;
  }

  get size(): number {
    return this.map.size;
  }
}
