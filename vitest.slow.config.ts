import { defineConfig } from 'vitest/config';

// The second test stage (`pnpm test:slow`, run by .ci/run after `pnpm test`): our packages packed and installed with
// npm outside the repository, the exported schemas read by other languages' tools (installed beforehand by
// scripts/install-test-tools.sh), the Redis store and the durability proofs (redis-server, installed the same way),
// the tools against hostile agents (test/hostile), a protocol added as data to a copy of the repository, every start
// command the READMEs show, the docs site and the inspector in Debian's chromium, and the CLI's whole-tree runs that
// would push `pnpm test` past its three minutes (listed below). Two files run at a time: most
// of them wait on npm, child processes and servers as much as they compute. Nothing in them depends on timing (each
// bounds its waits by deadlines of minutes, not by how fast the machine is).
export default defineConfig({
  test: {
    include: [
      'test/browser/**/*.test.ts',
      'test/hostile/**/*.test.ts',
      'test/installed/**/*.test.ts',
      'test/official-suites/**/*.test.ts',
      'test/other-languages/**/*.test.ts',
      'test/readme/**/*.test.ts',
      'test/registry/**/*.test.ts',
      'test/stores/**/*.test.ts',
      // Whole-tree runs of the CLI, each ten seconds or more of CPU: the docs site built and its links checked, the
      // diff command over every protocol pair, the export, every example type-checked by tsc, the lazy-loading probes.
      'test/docs/site.test.ts',
      'packages/cli/src/commands/diff/diff.test.ts',
      'test/export/export.test.ts',
      'test/types/examples-typecheck.test.ts',
      'test/regressions/13-lazy-cli.test.ts',
    ],
    globalSetup: ['test/installed/pack-once.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
