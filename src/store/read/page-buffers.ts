// Reusable buffers for answer bodies read from the event rows (data/events/). A fresh 48 KB buffer per distinct
// page is a fresh ArrayBuffer outside the JS heap; at thousands of pages a second that external
// memory made V8 run a full mark-compact of the ~270 MB heap several times a second, which was
// about a third of the server's CPU for distinct pages (perf, 100k events). Here a body's block
// is taken from a free list and given back once the answer has left for the socket.
//
// Safety rests on one rule: a block is reused only after an explicit `releaseBuffer`, which only
// the server calls, for a body it has finished writing and that nothing else holds (the answer
// cache keeps copies, see `detachedBody`). A block nobody gives back is ordinary garbage.
//
// The server's answer cache keeps its copies on blocks of their own too ("kept" blocks, see
// `keepBuffer`): a fresh 48 KB copy per admitted answer brought back the full collections above
// (an admitted distinct page cost ~35–140 µs more than one that was not). A kept block goes back
// to the pool when the cache drops it and no write of it is still under way: the server pins a
// kept body whose write did not go through at once, until it has.

/** per-block state, kept on the ArrayBuffer itself (no WeakMap: no ephemerons for the GC) */
const STATE = Symbol('aula.page-buffer');
const LENT = 1;
const FREE = 2;
/** held by the answer cache (keepBuffer) */
const KEPT = 3;
/** dropped by the cache while pinned: freed by the last unpin */
const DROPPED = 4;
/** writes of a kept block still under way */
const PINS = Symbol('aula.page-buffer.pins');

type PooledBlock = ArrayBuffer & { [STATE]?: number; [PINS]?: number };

/** size classes: 4 KiB … 1 MiB, powers of two; larger bodies are allocated as they come */
const MIN_SHIFT = 12;
const MAX_SHIFT = 20;
/** free bytes kept per class (at least two blocks, at most 64): bounds what the pool adds to RSS */
const KEEP_BYTES = 2 * 1024 * 1024;

const free: PooledBlock[][] = [];
const keep: number[] = [];
for (let shift = MIN_SHIFT; shift <= MAX_SHIFT; shift++) {
  free.push([]);
  keep.push(Math.max(2, Math.min(64, KEEP_BYTES >> shift)));
}

function classOf(length: number): number {
  if (length <= 1 << MIN_SHIFT) return 0;
  // 32 - clz32(n - 1): the shift of the smallest power of two ≥ n
  const shift = 32 - Math.clz32(length - 1);
  return shift <= MAX_SHIFT ? shift - MIN_SHIFT : -1;
}

/** A buffer of exactly `length` bytes (uninitialised), on a pooled block when a class fits. */
export function takeBuffer(length: number): Buffer {
  const c = length > 0 ? classOf(length) : -1;
  if (c < 0) return Buffer.allocUnsafe(length);
  let block = free[c].pop();
  if (block === undefined) {
    block = new ArrayBuffer(1 << (c + MIN_SHIFT)) as PooledBlock;
    // both properties from the start: every block has one shape
    block[PINS] = 0;
  }
  block[STATE] = LENT;
  return Buffer.from(block, 0, length);
}

/** The bytes of the block a pooled buffer of `length` bytes lies on: its size class, or `length` past the largest. */
export function blockLength(length: number): number {
  const c = length > 0 ? classOf(length) : -1;
  return c < 0 ? length : 1 << (c + MIN_SHIFT);
}

/**
 * A buffer of exactly `length` bytes (uninitialised) for the answer cache, on a pooled block when
 * a class fits: never released by `releaseBuffer`, only by `dropKept` once the cache lets go.
 */
export function keepBuffer(length: number): Buffer {
  const bytes = takeBuffer(length);
  keepLent(bytes);
  return bytes;
}

/**
 * Hands a lent buffer that is a whole body of its own (at the start of its block) to the answer
 * cache as it is, without a copy: the server's release after writing it is then ignored, and the
 * block goes back only through `dropKept`. False (nothing done) for anything else.
 */
export function keepLent(bytes: Uint8Array): boolean {
  const block = bytes.buffer as PooledBlock;
  if (block[STATE] !== LENT || bytes.byteOffset !== 0) return false;
  block[STATE] = KEPT;
  block[PINS] = 0;
  return true;
}

/**
 * Undoes `keepLent` (the cache dropped the answer at once, before the server wrote it): the block
 * is the answer's again, released by the server once written.
 */
export function lendBack(bytes: Uint8Array): void {
  const block = bytes.buffer as PooledBlock;
  if (block[STATE] === KEPT && block[PINS] === 0) block[STATE] = LENT;
}

/** Whether `bytes` lies on a block the answer cache keeps (or dropped while it was pinned). */
export function isKept(bytes: Uint8Array): boolean {
  const state = (bytes.buffer as PooledBlock)[STATE];
  return state === KEPT || state === DROPPED;
}

/** The cache lets go of a kept block: back to the pool now, or when its last write is done. */
export function dropKept(bytes: Uint8Array): void {
  const block = bytes.buffer as PooledBlock;
  if (block[STATE] !== KEPT) return;
  if (block[PINS]! > 0) block[STATE] = DROPPED;
  else giveBack(block);
}

/** A write of a kept block is under way: it is not reused before `unpin`. Other bytes: nothing. */
export function pin(bytes: Uint8Array): void {
  const block = bytes.buffer as PooledBlock;
  if (block[STATE] === KEPT || block[STATE] === DROPPED) block[PINS]!++;
}

/** The write `pin` announced is done. */
export function unpin(bytes: Uint8Array): void {
  const block = bytes.buffer as PooledBlock;
  if ((block[STATE] !== KEPT && block[STATE] !== DROPPED) || block[PINS]! === 0) return;
  block[PINS]!--;
  if (block[PINS] === 0 && block[STATE] === DROPPED) giveBack(block);
}

function giveBack(block: PooledBlock): void {
  block[STATE] = FREE;
  const c = classOf(block.byteLength);
  if (c >= 0 && free[c].length < keep[c]) free[c].push(block);
}

/** Whether `bytes` lies on a pooled block (lent, kept or free). */
export function isPooled(bytes: Uint8Array): boolean {
  return (bytes.buffer as PooledBlock)[STATE] !== undefined;
}

/**
 * Gives the block under `bytes` back. Only for a body whose answer has been written and that
 * nothing else references; a second release of the same block (several chunks of one block)
 * is ignored, so a block is never on the free list twice.
 */
export function releaseBuffer(bytes: Uint8Array): void {
  const block = bytes.buffer as PooledBlock;
  if (block[STATE] !== LENT) return;
  giveBack(block);
}

/** Free blocks held, in bytes (for tests and the memory report). */
export function pooledBytes(): number {
  let n = 0;
  free.forEach((list, c) => (n += list.length << (c + MIN_SHIFT)));
  return n;
}
