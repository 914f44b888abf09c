import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_FLAG } from './heap-policy.ts';

describe('the build process’s heap policy', () => {
  it('sets a V8 flag this Node has (an unknown one would be ignored without a word)', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const listed = options.split('\n').findIndex((line) => line.trim().startsWith(`${HEAP_GROWING_FLAG} `));
    expect(listed).toBeGreaterThan(-1);
    expect(options.split('\n')[listed + 1]).toMatch(/type: int/);
  });
});
