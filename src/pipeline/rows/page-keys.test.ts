import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Site } from '../../model/types.ts';
import { pageKeys } from './page-keys.ts';

describe('pageKeys', () => {
  it("changes with its own page's rows only", () => {
    const site = { timezone: 'Europe/Vienna', page_size: 3 } as unknown as Site;
    for (const count of [0, 1, 3, 7, 9]) {
      const keys = Array.from({ length: count }, () => randomBytes(32));
      const envelope = { baseUrl: 'https://example.org/api', site, limit: 3 };
      const listed = pageKeys(Buffer.concat(keys), envelope);
      for (let offset = 0; offset === 0 || offset < count; offset += 3) expect(listed(offset)).toMatch(/^[0-9a-f]{64}$/);
      if (count > 3) {
        const changed = keys.map((k) => Buffer.from(k));
        changed[4][0] ^= 1;
        expect(pageKeys(Buffer.concat(changed), envelope)(3)).not.toBe(listed(3));
        expect(pageKeys(Buffer.concat(changed), envelope)(0)).toBe(listed(0));
      }
    }
  });
});
