// `agentproto diff <old> <new>`: every change between two versions of a protocol's schemas, whom each breaks, and a
// message that proves it; a summary first. `--breaking-only` lists only what breaks someone, `--fail-on` makes it a
// CI gate.
import { writeFile } from 'node:fs/promises';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { isOneOf } from '../../one-of.js';
import type { Output } from '../../output.js';
import { DIFF_REPORTERS, renderDiff, summaryLine } from './reporters.js';
import { readSide } from './sides.js';

/** Whom a change must break for `--fail-on` to fail the command. */
export const FAIL_ON = ['sender', 'receiver', 'any', 'none'] as const;
/** A party `--fail-on` names. */
export type FailOn = (typeof FAIL_ON)[number];

/** Options of `agentproto diff`. */
export interface DiffOptions {
  reporter?: string;
  out?: string;
  failOn?: string;
  /** List only the changes that break someone (the summary and `--fail-on` still see every change). */
  breakingOnly?: boolean;
}

/** Runs `agentproto diff`: 1 when `--fail-on` names a party a change breaks, 2 on bad arguments, else 0. */
export async function diffCommand(
  oldSpec: string,
  newSpec: string,
  options: DiffOptions,
  io: Output,
): Promise<number> {
  const reporter = options.reporter ?? 'text';
  if (!isOneOf(DIFF_REPORTERS, reporter))
    throw new UsageError(`--reporter must be one of ${DIFF_REPORTERS.join(', ')}, not "${options.reporter}"`);
  const failOn = options.failOn ?? 'none';
  if (!isOneOf(FAIL_ON, failOn))
    throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, not "${options.failOn}"`);
  const [before, after] = [await readSide(oldSpec), await readSide(newSpec)];
  const { diffSides } = await import('@agentproto/codegen');
  const report = diffSides(before, after);
  const shown = { breakingOnly: options.breakingOnly === true };
  const rendered = renderDiff(report, reporter, options.out ? undefined : io.paint, shown);
  if (options.out) {
    await writeFile(options.out, `${rendered}\n`);
    io.out(summaryLine(report, shown));
  } else io.out(rendered);
  const fails = report.changes.some((c) => {
    if (c.breaks === 'none' || failOn === 'none') return false;
    if (failOn === 'any' || c.breaks === 'both') return true;
    return c.breaks === (failOn === 'sender' ? 'senders' : 'receivers');
  });
  return fails ? ExitCode.invalid : ExitCode.ok;
}
