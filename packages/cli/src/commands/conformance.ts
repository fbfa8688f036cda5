// `agentproto conformance <base-url> --protocol <id>`: runs the conformance kit against a live agent and reports in
// text (with progress), JSON, JUnit or Markdown.
import { readFile, writeFile } from 'node:fs/promises';
import {
  ConformanceUsageError,
  ExpectedFailuresError,
  type LevelFilter,
  parseExpectedFailures,
  passed,
  type ReporterName,
  render,
  resolveSuite,
  resultLine,
  runConformance,
  TargetUnreachable,
} from '@agentproto/conformance';
import { type Paint, plain } from '../colors.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Output } from '../output.js';

/** Options of `agentproto conformance`. */
export interface ConformanceCommandOptions {
  protocol: string;
  level?: string;
  reporter?: string;
  out?: string;
  expectedFailures?: string;
  timeout?: string;
}

const LEVELS: readonly LevelFilter[] = ['must', 'should', 'all'];
const REPORTERS: readonly ReporterName[] = ['text', 'json', 'junit', 'markdown'];

/**
 * `agentproto conformance <base-url> --protocol <id>[@<version>]`: runs the protocol's suite against a live agent.
 * Exit 0 when no MUST check fails (expected failures aside) and no expected failure is stale, 1 otherwise, 2 for
 * usage errors and an unreachable target.
 */
export async function conformanceCommand(
  target: string,
  options: ConformanceCommandOptions,
  io: Output,
): Promise<number> {
  const level = (options.level ?? 'all') as LevelFilter;
  if (!LEVELS.includes(level)) throw new UsageError(`--level must be one of ${LEVELS.join(', ')}`);
  const reporter = (options.reporter ?? 'text') as ReporterName;
  if (!REPORTERS.includes(reporter))
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}`);
  // Without --timeout the kit's own default applies (DEFAULT_TIMEOUT_MS): one definition.
  const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout);
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0))
    throw new UsageError('--timeout must be a positive number of milliseconds');
  try {
    const { suite } = await resolveSuite(options.protocol);
    let expectedFailures = {};
    if (options.expectedFailures) {
      const text = await readFile(options.expectedFailures, 'utf8').catch(() => {
        throw new UsageError(`cannot read ${options.expectedFailures}`);
      });
      expectedFailures = parseExpectedFailures(
        text,
        suite.checks.map((c) => c.id),
        options.expectedFailures,
      );
    }
    // A text report shows each check as it finishes (progress); the others are written whole at the end.
    const report = await runConformance({
      protocol: options.protocol,
      target,
      level,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      expectedFailures,
      ...(reporter === 'text'
        ? { onResult: (r) => io.out(paintResult(resultLine(r), io.paint ?? plain)) }
        : {}),
    });
    const rendered = render(report, reporter);
    if (options.out) await writeFile(options.out, rendered);
    if (reporter === 'text') {
      const summary = rendered.trimEnd().split('\n').at(-1) ?? '';
      io.out((io.paint ?? plain)(passed(report) ? 'green' : 'red', summary));
    } else if (!options.out) io.out(rendered.trimEnd());
    return passed(report) ? ExitCode.ok : ExitCode.invalid;
  } catch (error) {
    if (
      error instanceof ConformanceUsageError ||
      error instanceof ExpectedFailuresError ||
      error instanceof TargetUnreachable
    )
      throw new UsageError(error.message);
    throw error;
  }
}

/** Colours the status word that starts a result line: PASS green, FAIL and STALE red, SKIP and XFAIL yellow. */
function paintResult(line: string, paint: Paint): string {
  const status = line.slice(0, 5).trimEnd();
  const style = status === 'PASS' ? 'green' : status === 'FAIL' || status === 'STALE' ? 'red' : 'yellow';
  return `${paint(style, status)}${line.slice(status.length)}`;
}
