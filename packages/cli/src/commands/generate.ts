// `agentproto generate [--check]`: runs the generator over schemas/ and writes (or, with --check, lists) the files.
// Through the stamp and the run cache: an unchanged tree is checked without loading the generator (`--no-cache` runs
// it anyway).
import path from 'node:path';
import { generateCached } from '@agentproto/codegen/cached';
import { ExitCode } from '../exit-codes.js';
import type { Output } from '../output.js';
import { findRoot } from '../repository-root.js';

/** Options of `agentproto generate`. */
export interface GenerateCommandOptions {
  check?: boolean;
  /** False with `--no-cache`: run the whole pipeline even when no input changed. */
  cache?: boolean;
  root?: string;
  protocol?: string[];
}

/** `agentproto generate [--check]`: regenerates the protocol packages, or lists every stale file and exits 1. */
export async function generateCommand(options: GenerateCommandOptions, io: Output): Promise<number> {
  const root = options.root ? path.resolve(options.root) : findRoot(process.cwd(), '`agentproto generate`');
  const result = await generateCached({
    root,
    check: options.check ?? false,
    cache: options.cache !== false,
    ...(options.protocol ? { protocols: options.protocol } : {}),
  });
  if (options.check) {
    if (result.stampOutdated)
      io.err(
        `note: the inputs changed since the stamp was written, so this check ran the generator; \`pnpm generate\` rewrites the stamp (${result.stampOutdated})`,
      );
    if (result.stale.length === 0) {
      io.out('generated files are up to date');
      return ExitCode.ok;
    }
    for (const f of result.stale) io.err(`stale: ${f}`);
    io.err(
      `${result.stale.length} generated file(s) differ from the schemas; run \`pnpm generate\` and commit the result`,
    );
    return ExitCode.invalid;
  }
  io.out(
    result.stale.length === 0 ? 'nothing to regenerate' : result.stale.map((f) => `wrote ${f}`).join('\n'),
  );
  return ExitCode.ok;
}
