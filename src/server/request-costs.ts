// What requests of one shape cost, as the API core counted it. A shape is what a request's cost
// mostly depends on and its values mostly do not: the path (a segment of digits alike whatever
// they are: every event's detail is one shape), the parameter names the API takes
// (with their lookups, `teaser__iregex`), how the answer is represented (`format`, a browser's
// Accept) and the order of magnitude of `limit`. The cheap-first scheduler (cheap-first.ts)
// answers requests of a shape known to be expensive after the cheap ones waiting.
//
// Learned, not listed: every answer's counted work is recorded against its shape, so a new filter
// or a change of the data moves a shape between the two queues with no list to keep. A shape not
// seen yet counts as cheap unless one of its names came with an expensive answer lately: its
// first request is answered at once, bounded like every request by the work limit, and teaches
// the shape's cost.

/** Shapes (and names per route) remembered; one not answered lately is forgotten first (CLOCK, see requestCosts). */
export const MAX_SHAPES = 4096;

/**
 * Work (units) above which a shape's requests are answered after the cheap ones: about a page of
 * a hundred events. Far below the limit, because units track CPU only roughly (some answers count
 * less than their CPU): a moderate request queued waits a turn, an
 * expensive one taken for cheap delays every cheap request read after it.
 */
export const EXPENSIVE_UNITS = 150_000;

/** Parameter names the API was seen to take: its filters and lookups are a finite set. */
export const MAX_KNOWN_NAMES = 1024;

/**
 * Names of one request judged and recorded on their own: enough for any real query, and few
 * enough that one request naming every known name cannot push the learned shapes out.
 */
export const MAX_PARTS = 16;

/** characters of a shape's key kept: a longer one (hundreds of parameter names) is cut */
const MAX_SHAPE_CHARS = 512;

/** names the API may know: written as they are in X-Ignored-Parameters, so comparable with it */
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export interface Shape {
  /** the whole shape */
  key: string;
  /** each known name on its own with the path and representation: what an unseen shape is judged by */
  parts: string[];
}

export interface RequestShapes {
  /** The shape of a request: equal for requests whose cost the core counts alike. */
  shapeOf(method: string, path: string, query: string, accept: string | undefined): Shape;
  /**
   * Learns which of a request's parameter names the API takes, from its answer: those it did not
   * name in `X-Ignored-Parameters` (`ignored`). Only from answers of a known route (200, 400) whose
   * list is whole. True when it learned a name.
   */
  learn(query: string, status: number, ignored: string | undefined): boolean;
  readonly knownNames: number;
}

/**
 * Text of a query string as the core reads it (URLSearchParams: `+` as space, escapes decoded; an
 * invalid escape kept): `teaser%5F%5Firegex` is the name `teaser__iregex`, not a name never seen.
 */
function decoded(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  return new URLSearchParams(`n=${text}`).get('n') ?? text;
}

/**
 * Calls `each(name, from, eq, end)` for each `&`-separated pair of `query` (empty ones too, as
 * split('&') gives them): its name decoded, where it starts and ends, and its `=` (-1 without).
 */
function eachName(query: string, each: (name: string, from: number, eq: number, end: number) => void): void {
  if (query === '') return;
  // the next '=' found from an earlier pair is the next from this one until this one passes it
  // (looked for again from every pair, a query of thousands of names without one reads it all
  // once per name)
  let nextEq = -2;
  for (let from = 0; ; ) {
    let end = query.indexOf('&', from);
    if (end === -1) end = query.length;
    if (nextEq !== -1 && nextEq < from) nextEq = query.indexOf('=', from);
    const eq = nextEq >= end ? -1 : nextEq;
    each(decoded(query.slice(from, eq === -1 ? end : eq)), from, eq, end);
    if (end === query.length) return;
    from = end + 1;
  }
}

/**
 * The path as a shape holds it: each segment made only of ASCII digits (an event's id) as `#`, so
 * the details of twenty thousand events are one shape, learned once and held in one entry, not
 * twenty thousand that push every other shape out. The path itself where it has none.
 */
export function pathShape(path: string): string {
  let out = '';
  let from = 0;
  for (let i = 1; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x30 || c > 0x39 || path.charCodeAt(i - 1) !== 47) continue;
    let end = i + 1;
    while (end < path.length && path.charCodeAt(end) >= 0x30 && path.charCodeAt(end) <= 0x39) end++;
    if (end < path.length && path.charCodeAt(end) !== 47) {
      i = end;
      continue;
    }
    out += `${path.slice(from, i)}#`;
    from = i = end;
  }
  return from === 0 ? path : out + path.slice(from);
}

/** Up to this many names are sorted by insertion; more (a query may repeat a name thousands of times) by the builtin sort. */
const INSERTION_SORTED = 16;

/**
 * `names` in the order Array.prototype.sort() gives them (UTF-16 code units), by insertion: a
 * request names a few parameters, and the builtin sort allocates a work array for every call.
 */
function sortInPlace(names: string[]): void {
  if (names.length > INSERTION_SORTED) {
    names.sort();
    return;
  }
  for (let i = 1; i < names.length; i++) {
    const name = names[i];
    let j = i;
    for (; j > 0 && names[j - 1] > name; j--) names[j] = names[j - 1];
    names[j] = name;
  }
}

/**
 * Keys remembered in the order they came, at most `capacity`: `add` gives the key it pushed out.
 * A Map's own order cannot do this cheaply: each `keys().next()` after deleting the oldest walks
 * over every entry deleted since V8 last rehashed the table.
 */
class KeyRing {
  private readonly keys: (string | undefined)[];
  private next = 0;

  constructor(capacity: number) {
    this.keys = new Array<string | undefined>(Math.max(1, capacity)).fill(undefined);
  }

  /** Remembers `key` in the oldest slot; the key that held it, if any. */
  add(key: string): string | undefined {
    const old = this.keys[this.next];
    this.keys[this.next] = key;
    this.next = (this.next + 1) % this.keys.length;
    return old;
  }
}

/**
 * Shapes made of the parameter names the API takes. A name it ignores (`_v`, `x1`, …) is left
 * out: varying one makes no new shape, so a client cannot pass every request off as a shape never
 * seen (a name counts as taken once an answer did not call it ignored).
 */
export function requestShapes(limits = { names: MAX_KNOWN_NAMES }): RequestShapes {
  const known = new Set<string>();
  /**
   * Shapes made, by key: most requests are of a few shapes, whose parts are made once. Only
   * shapes without a `format` (whose decoded value could hold any character) and not cut: their
   * key says which base and names they are made of.
   */
  const made = new Map<string, Shape>();
  const madeOrder = new KeyRing(MAX_SHAPES);
  return {
    shapeOf(method, path, query, accept) {
      const kept: string[] = [];
      let format = '';
      let limit = 0;
      eachName(query, (name, from, eq, end) => {
        if (!known.has(name)) return;
        // (`eq` within the pair, -1 without one)
        const at = eq === -1 ? -1 : eq - from;
        if (name === 'format') format = decoded(query.slice(from + at + 1, Math.min(end, from + at + 25))).slice(0, 8);
        // 1, 10, 100, 1000: a page's size in digits
        else if (name === 'limit') limit = Math.min(end - from - at - 1, 5);
        kept.push(name);
      });
      if (kept.length > 1) sortInPlace(kept);
      const html = accept !== undefined && accept.includes('html') ? 'h' : '';
      const base = `${method} ${pathShape(path)} ${format}${html}${limit}`;
      const key = `${base} ${kept.join('&')}`;
      const reusable = format === '' && key.length <= MAX_SHAPE_CHARS;
      const shape = reusable ? made.get(key) : undefined;
      if (shape) return shape;
      const fresh = { key: key.length > MAX_SHAPE_CHARS ? key.slice(0, MAX_SHAPE_CHARS) : key, parts: [...new Set(kept)].slice(0, MAX_PARTS).map((name) => `${base} ~${name}`) };
      if (reusable) {
        const old = madeOrder.add(key);
        if (old !== undefined) made.delete(old);
        made.set(key, fresh);
      }
      return fresh;
    },
    learn(query, status, ignored) {
      // a list cut at its cap names only some of what was ignored
      if (known.size >= limits.names || (status !== 200 && status !== 400) || query === '' || ignored?.endsWith(', ...')) return false;
      let skip: Set<string> | undefined;
      let learned = false;
      eachName(query, (name) => {
        // most requests name only names known already
        if (known.size >= limits.names || known.has(name) || !PLAIN_NAME.test(name)) return;
        skip ??= new Set(ignored ? ignored.split(', ') : []);
        if (!skip.has(name)) {
          known.add(name);
          learned = true;
        }
      });
      return learned;
    },
    get knownNames() {
      return known.size;
    },
  };
}

export interface RequestCosts {
  /**
   * Whether requests of this shape were expensive when last answered; for a shape not seen yet,
   * whether one of its names was, with the same path and representation (the shapes are every
   * combination of the names: a client varying them would otherwise always send a new one).
   */
  expensive(shape: Shape): boolean;
  /** records the work the core counted for one answer of this shape */
  record(shape: Shape, units: number): void;
  readonly size: number;
}

export function requestCosts(limits = { shapes: MAX_SHAPES, expensiveUnits: EXPENSIVE_UNITS }): RequestCosts {
  /** each key's estimate and whether it was recorded since the hand last passed it (CLOCK's reference bit) */
  const units = new Map<string, { units: number; used: boolean }>();
  /**
   * The keys in their slots, for eviction by "second chance" (CLOCK): a record of a known key only
   * sets its flag, as moving it to the back of the Map (a delete and a set) would leave a deleted
   * entry for every later eviction's walk from the front to step over.
   */
  const slots: string[] = [];
  let hand = 0;
  const note = (key: string, used: number) => {
    const entry = units.get(key);
    if (entry === undefined) {
      if (slots.length < limits.shapes) slots.push(key);
      else {
        // the least recently recorded, nearly: a key recorded since the hand last passed is passed over once
        for (;;) {
          const passed = units.get(slots[hand])!;
          if (!passed.used) break;
          passed.used = false;
          hand = (hand + 1) % slots.length;
        }
        units.delete(slots[hand]);
        slots[hand] = key;
        hand = (hand + 1) % slots.length;
      }
      units.set(key, { units: used, used: false });
      return;
    }
    // A cheaper answer (one the core had kept by the time a queued request's turn came costs
    // nothing) halves the estimate at most: an expensive shape stays expensive across a few of
    // those. (A request whose answer the core keeps when it is read is not recorded at all:
    // request-handler.ts sends it at once.) A costlier answer than the
    // estimate moves it a quarter of the way there: a shape's occasional costly answer (a short
    // substring among longer ones) does not send the answers after it to the queue, where they
    // wait behind the cheap ones read in each turn; a shape that costs that much again soon (a
    // client sending its worst requests) is expensive after one or two of them.
    const before = entry.units;
    entry.units = used > before ? before + (used - before) / 4 : Math.max(used, before / 2);
    entry.used = true;
  };
  return {
    expensive(shape) {
      const whole = units.get(shape.key);
      if (whole !== undefined) return whole.units > limits.expensiveUnits;
      for (const part of shape.parts) if ((units.get(part)?.units ?? 0) > limits.expensiveUnits) return true;
      return false;
    },
    record(shape, used) {
      note(shape.key, used);
      for (const part of shape.parts) note(part, used);
    },
    get size() {
      return units.size;
    },
  };
}
