// The key of an event-list page: its envelope (count, offset, limit, base URL) and its rows'
// hashes (rowHash), plus the site and the identity. Two builds whose page has the same key write
// the same page, so the later may take the earlier's file (dist-ledger.ts). A key may be broader
// than the page, never narrower.
import { createHash } from 'node:crypto';
import { serialize } from 'node:v8';
import type { Site } from '../../model/types.ts';
import { cacheIdentity } from '../cache/keys.ts';
import { ROW_HASH_BYTES as HASH_BYTES } from './row-entries.ts';

type PageEnvelope = { baseUrl: string; site: Site; limit: number };

/** The key (hex) of the page at each offset; `rowHashes` in list order, end to end; `besides`: what else the pages are made of. */
export function pageKeys(rowHashes: Buffer, envelope: PageEnvelope, besides: string[] = []): (offset: number) => string {
  const count = rowHashes.length / HASH_BYTES;
  const head = serialize([cacheIdentity(), envelope.baseUrl, envelope.site, envelope.limit, count, ...besides]);
  return (offset) => {
    const end = Math.min(count, offset + envelope.limit);
    const hash = createHash('sha256').update(head).update(serialize(offset));
    if (end > offset) hash.update(rowHashes.subarray(offset * HASH_BYTES, end * HASH_BYTES));
    return hash.digest('hex');
  };
}

/** The key of events.ics: one page of the first `cap` rows, and of the build time and the categories file's SHA-256 besides. */
export const calendarKey = (rowHashes: Buffer, cap: number, envelope: Omit<PageEnvelope, 'limit'>, builtAt: string, categories: string): string =>
  pageKeys(rowHashes.subarray(0, cap * HASH_BYTES), { ...envelope, limit: cap }, [builtAt, categories])(0);
