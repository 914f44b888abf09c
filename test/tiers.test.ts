// The slow tier (`npm run test:slow`) names its files in vitest.config.ts: a name that matches no
// file, as after a file moved, would put that file in `npm test` unnoticed and leave the slow
// tier without it.
import fg from 'fast-glob';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLOW } from '../vitest.config.ts';

const ROOT = join(import.meta.dirname, '..');

describe('the slow tier', () => {
  it.each(SLOW)('%s names test files that exist', (pattern) => {
    expect(fg.sync(pattern, { cwd: ROOT }).length).toBeGreaterThan(0);
  });
});
