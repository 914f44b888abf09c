import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Site } from '../../model/types.ts';
import { pageKeys } from './page-keys.ts';

describe('pageKeys', () => {
  it('gives the same key for the rows\' keys as a list or one after another in one buffer', () => {
    const site = { timezone: 'Europe/Vienna', page_size: 3 } as unknown as Site;
    for (const count of [0, 1, 3, 7, 9]) {
      const keys = Array.from({ length: count }, () => randomBytes(32));
      const envelope = { baseUrl: 'https://example.org/api', site, limit: 3 };
      const listed = pageKeys(keys, envelope);
      const joined = pageKeys(Buffer.concat(keys), envelope);
      for (let offset = 0; offset === 0 || offset < count; offset += 3) expect(joined(offset)).toBe(listed(offset));
      // and a key depends on its page's rows
      if (count > 3) {
        const changed = keys.map((k) => Buffer.from(k));
        changed[4][0] ^= 1;
        expect(pageKeys(changed, envelope)(3)).not.toBe(listed(3));
        expect(pageKeys(changed, envelope)(0)).toBe(listed(0));
      }
    }
  });
});
