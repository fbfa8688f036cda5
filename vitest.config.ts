import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `pnpm test`: everything but the second stage (vitest.slow.config.ts), which .ci/run also runs.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      'test/browser/**',
      'test/hostile/**',
      'test/installed/**',
      // The official suites but the A2A TCK harness's own logic, which needs none of them.
      'test/official-suites/!(a2a-tck-harness.test.ts)',
      'test/official-suites/*/**',
      'test/other-languages/**',
      'test/readme/**',
      'test/registry/**',
      'test/stores/**',
      // Whole-tree runs of the CLI, each ten seconds or more of CPU: the docs site built and its links checked, the
      // diff command over every protocol pair, the export, every example type-checked by tsc, the lazy-loading probes.
      'test/docs/site.test.ts',
      'packages/cli/src/commands/diff/diff.test.ts',
      'test/export/export.test.ts',
      'test/types/examples-typecheck.test.ts',
      'test/regressions/13-lazy-cli.test.ts',
    ],
    // One scratch folder per run as every worker's and child's TMPDIR, removed when the run ends.
    globalSetup: ['test/support/scratch-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Test files share their worker's module cache: the generator, ajv and the protocol packages load once per
    // worker, not once per file (imports were a quarter of the run). No test mocks modules or leaves globals changed.
    isolate: false,
    // At least two workers, where vitest's default on 2 cores is one: many tests wait on servers and CLIs they start,
    // and one worker left the second core idle half the time (150 s → 100 s on 2 cores, every test passing).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
