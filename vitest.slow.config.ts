import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (seconds of one CI run on 2 cores). With two files at a time, starting
 * them first keeps the stage from ending on one long file alone; a fresh clone has no timings of its own, and
 * vitest's fallback order (the largest file first) started the longest of them late. The other files follow in
 * vitest's own order.
 */
const LONGEST_FIRST = [
  'test/installed/new-project.test.ts', // 323 s
  'test/registry/version-add.test.ts', // 209 s
  'test/installed/cli.test.ts', // 155 s
  'test/other-languages/export-readme-examples.test.ts', // 144 s
  'test/browser/docs-site.test.ts', // 124 s
  'test/official-suites/client-conformance.test.ts', // 86 s
  'test/installed/packages.test.ts', // 83 s
  'test/stores/durability.test.ts', // 64 s
  'test/conformance/conformance.test.ts', // 50 s
  'test/browser/inspector.test.ts', // 48 s
  'test/registry/throwaway-protocol.test.ts', // 40 s
  'test/readme/start-commands.test.ts', // 36 s
  'test/readme/proxy-command.test.ts', // 34 s
  'test/registry/generate-launcher.test.ts', // 29 s
  'test/registry/generate-cache.test.ts', // 28 s
  'test/other-languages/python-jsonschema.test.ts', // 22 s
  'test/hostile/tools-finish.test.ts', // 22 s
  'test/fuzz/fuzz.test.ts', // 22 s
  'test/other-languages/quicktype.test.ts', // 21 s
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONGEST_FIRST.indexOf(
        path.relative(file.project.config.root, file.moduleId).split(path.sep).join('/'),
      );
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    // The A2A TCK harness's own logic runs in `pnpm test` (the TCK itself here, in a2a-tck.test.ts).
    exclude: ['**/node_modules/**', 'test/official-suites/a2a-tck-harness.test.ts'],
    // A scratch folder per run as every worker's and child's TMPDIR (removed at the end), then the packed packages.
    globalSetup: ['test/support/scratch-tmpdir.ts', 'test/installed/pack-once.ts'],
    fileParallelism: true,
    sequence: { sequencer: LongestFirst },
    maxWorkers: 2,
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
