import { defineConfig } from 'vitest/config';

// `pnpm test`: everything but the second stage (vitest.slow.config.ts), which .ci/run also runs.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      'test/installed/**',
      'test/other-languages/**',
      'test/registry/**',
      'test/stores/**',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
