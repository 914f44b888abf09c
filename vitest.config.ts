import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/compile-lib.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
