// The key of an event-list page: what its bytes are made of. A default-list page is the envelope
// (the count, and the links made from the offset, the limit, the count and the base URL) around
// its rows' bytes, joined as stored, which the rows' hashes stand for (render-cache.ts rowHash). So
// two builds whose page has the same key write the same page, and the later one may take the
// earlier one's file (dist-ledger.ts). The site's settings (page sizes, zone) and the build's own
// identity (aula, dist format) are in the key too, though only some of them shape a page: a key
// may be broader than the page, never narrower.
import { createHash } from 'node:crypto';
import { serialize } from 'node:v8';
import type { Site } from '../../model/types.ts';
import { cacheIdentity } from '../cache/build-cache.ts';
import { ROW_HASH_BYTES as HASH_BYTES } from './render-cache.ts';


export interface PageEnvelope {
  baseUrl: string;
  site: Site;
  limit: number;
}

/**
 * `rowHashes`: the rows' hashes in list order, each a Buffer or all of them one after another in one
 * (32 bytes each: a page's rows are then one update, the same hash); returns the key (hex) of the
 * page at each offset.
 */
export function pageKeys(rowHashes: readonly Buffer[] | Buffer, envelope: PageEnvelope): (offset: number) => string {
  const count = Buffer.isBuffer(rowHashes) ? rowHashes.length / HASH_BYTES : rowHashes.length;
  const head = serialize([cacheIdentity(), envelope.baseUrl, envelope.site, envelope.limit, count]);
  return (offset) => {
    const hash = createHash('sha256').update(head).update(serialize(offset));
    const end = Math.min(count, offset + envelope.limit);
    if (Buffer.isBuffer(rowHashes)) {
      if (end > offset) hash.update(rowHashes.subarray(offset * HASH_BYTES, end * HASH_BYTES));
    } else for (let row = offset; row < end; row++) hash.update(rowHashes[row]);
    return hash.digest('hex');
  };
}

/**
 * The key of the calendar feed (events.ics): it holds the first `cap` rows of the default list,
 * each rendered from its row's bytes (which its hash stands for) with its categories' titles (the
 * categories file, by its SHA-256 `categories`), stamped with the build time, named and linked
 * after the base URL, in the site's zone. `rowHashes`: the rows' hashes in list order, 32 bytes
 * each, one after another.
 */
export function calendarKey(rowHashes: Buffer, count: number, cap: number, envelope: Omit<PageEnvelope, 'limit'>, builtAt: string, categories: string): string {
  const rows = Math.min(count, cap);
  return createHash('sha256')
    .update(serialize(['calendar', cacheIdentity(), envelope.baseUrl, envelope.site, builtAt, rows, categories]))
    .update(rowHashes.subarray(0, rows * HASH_BYTES))
    .digest('hex');
}
