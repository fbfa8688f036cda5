// `agentproto conformance <base-url> --protocol <id>`: runs the conformance kit against a live agent and reports in
// text (with progress), JSON, JUnit or Markdown.
import { readFile, writeFile } from 'node:fs/promises';
import {
  ConformanceUsageError,
  clientChecks,
  clientRequirementsCoverage,
  ExpectedFailuresError,
  type FuzzOptions,
  type LevelFilter,
  loadClientScenarios,
  parseExpectedFailures,
  passed,
  RegistryLookupError,
  type ReporterName,
  render,
  renderCoverage,
  requirementsCoverage,
  resolveBinding,
  resolveSuite,
  resultLine,
  runClientConformance,
  runConformance,
  TargetUnreachable,
} from '@agentproto/conformance';
import { type Paint, plain } from '../colors.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { headerOptions } from '../header-options.js';
import { isOneOf } from '../one-of.js';
import type { Output } from '../output.js';

/** Options of `agentproto conformance`. */
export interface ConformanceCommandOptions {
  protocol: string;
  level?: string;
  reporter?: string;
  out?: string;
  expectedFailures?: string;
  timeout?: string;
  checkDeadline?: string;
  deadline?: string;
  coverage?: boolean;
  fuzz?: string;
  seed?: string;
  fuzzTime?: string;
  header?: string[];
  /** `--side-effects`: checks may call what the agent declares may change something. */
  sideEffects?: boolean;
  /**
   * `--client <command>`: check a client instead, run once per client scenario with the scripted agent's URL;
   * `--client` without a command goes with `--coverage` (the client requirements, nothing run).
   */
  client?: string | boolean;
  /** `--scenario <id...>`: with --client, only these client scenarios. */
  scenario?: string[];
}

const LEVELS: readonly LevelFilter[] = ['must', 'should', 'all'];
const REPORTERS: readonly ReporterName[] = ['text', 'json', 'junit', 'markdown'];

/**
 * `agentproto conformance <base-url> --protocol <id>[@<version>]`: runs the protocol's suite against a live agent.
 * Exit 0 when no MUST check fails or is blocked (expected failures aside) and no expected failure is stale, 1
 * otherwise (an agent that does not answer as the protocol: its probe check fails, the others are blocked), 2 for
 * usage errors and an unreachable target (a connection refused asks whether the agent is running).
 */
export async function conformanceCommand(
  target: string | undefined,
  options: ConformanceCommandOptions,
  io: Output,
): Promise<number> {
  if (options.client !== undefined) return clientConformance(target, options, io);
  if (options.scenario !== undefined) throw new UsageError('--scenario goes with --client <command>');
  if (target === undefined) {
    if (!options.coverage)
      throw new UsageError("give the agent's base URL, or --coverage to list the requirements");
    return coverageOnly(options, io);
  }
  const level = options.level ?? 'all';
  if (!isOneOf(LEVELS, level)) throw new UsageError(`--level must be one of ${LEVELS.join(', ')}`);
  const reporter = options.reporter ?? 'text';
  if (!isOneOf(REPORTERS, reporter))
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}`);
  // Without --timeout the kit's own default applies (DEFAULT_TIMEOUT_MS): one definition.
  const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout);
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0))
    throw new UsageError('--timeout must be a positive number of milliseconds');
  const checkDeadlineMs = milliseconds(options.checkDeadline, '--check-deadline');
  const deadlineMs = milliseconds(options.deadline, '--deadline');
  const fuzz = fuzzOptions(options);
  try {
    const { suite } = await resolveSuite(options.protocol);
    let expectedFailures = {};
    if (options.expectedFailures) {
      const text = await readFile(options.expectedFailures, 'utf8').catch(() => {
        throw new UsageError(`cannot read ${options.expectedFailures}`);
      });
      // With --fuzz, its three checks may be expected to fail too.
      const prefix = suite.checks
        .find((c) => c.id.endsWith('.wire.schemas'))
        ?.id.replace(/\.wire\.schemas$/, '');
      const ids = [
        ...suite.checks.map((c) => c.id),
        ...(fuzz ? ['valid', 'invalid', 'declared'].map((k) => `${prefix}.fuzz.${k}`) : []),
      ];
      expectedFailures = parseExpectedFailures(text, ids, options.expectedFailures);
    }
    // A text report shows each check as it finishes (progress); the others are written whole at the end.
    const headers = headerOptions(options.header);
    const report = await runConformance({
      protocol: options.protocol,
      target,
      headers,
      sideEffects: options.sideEffects === true,
      level,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(checkDeadlineMs === undefined ? {} : { checkDeadlineMs }),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      expectedFailures,
      ...(fuzz ? { fuzz } : {}),
      ...(options.coverage ? { coverage: true } : {}),
      ...(reporter === 'text'
        ? { onResult: (r) => io.out(paintResult(resultLine(r), io.paint ?? plain)) }
        : {}),
    });
    const rendered = render(report, reporter);
    if (options.out) await writeFile(options.out, rendered);
    if (reporter === 'text') {
      // The checks were shown as they finished; the coverage table and the summary follow them.
      if (report.coverage) io.out(renderCoverage(report.coverage, 'text').trimEnd());
      const summary = rendered.trimEnd().split('\n').at(-1) ?? '';
      io.out((io.paint ?? plain)(passed(report) ? 'green' : 'red', summary));
    } else {
      if (!options.out) io.out(rendered.trimEnd());
      // The report holds the diagnosis; the terminal (or the CI log) gets it once too, apart from the report.
      if (report.diagnosis) io.err(report.diagnosis);
    }
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

/** A positive whole number of milliseconds given to `option`; undefined when not given (the kit's default applies). */
function milliseconds(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError(`${option} must be a positive number of milliseconds`);
  return ms;
}

/** Colours the status word that starts a result line: PASS green, FAIL and STALE red, SKIP, BLOCK and XFAIL yellow. */
function paintResult(line: string, paint: Paint): string {
  const status = line.slice(0, 5).trimEnd();
  const style = status === 'PASS' ? 'green' : status === 'FAIL' || status === 'STALE' ? 'red' : 'yellow';
  return `${paint(style, status)}${line.slice(status.length)}`;
}

/** The --fuzz options, checked: undefined without --fuzz. */
function fuzzOptions(options: ConformanceCommandOptions): FuzzOptions | undefined {
  if (options.fuzz === undefined) {
    if (options.seed !== undefined || options.fuzzTime !== undefined)
      throw new UsageError('--seed and --fuzz-time go with --fuzz <n>');
    return undefined;
  }
  const requests = Number(options.fuzz);
  if (!Number.isInteger(requests) || requests < 1)
    throw new UsageError('--fuzz must be a positive number of requests');
  const seed = Number(options.seed ?? 1);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new UsageError('--seed must be an integer from 0 to 4294967295');
  const timeMs = options.fuzzTime === undefined ? undefined : Number(options.fuzzTime);
  if (timeMs !== undefined && (!Number.isInteger(timeMs) || timeMs <= 0))
    throw new UsageError('--fuzz-time must be a positive number of milliseconds');
  return { requests, seed, ...(timeMs === undefined ? {} : { timeMs }) };
}

/**
 * `--coverage` without a URL (or with `--client` and no command): the requirements table, the agent's or the
 * client's; exit 1 when a requirement is neither covered nor excluded.
 */
async function coverageOnly(
  options: ConformanceCommandOptions,
  io: Output,
  side: 'server' | 'client' = 'server',
): Promise<number> {
  try {
    const { binding, rows, problems } = await (side === 'client'
      ? clientRequirementsCoverage(options.protocol)
      : requirementsCoverage(options.protocol));
    const reporter = options.reporter ?? 'text';
    const out =
      reporter === 'json'
        ? `${JSON.stringify({ protocol: binding.protocol, version: binding.version, coverage: rows }, null, 2)}\n`
        : reporter === 'markdown'
          ? renderCoverage(rows, 'markdown')
          : reporter === 'text'
            ? `${binding.protocol}@${binding.version}${side === 'client' ? ' (client)' : ''}\n${renderCoverage(rows, 'text')}`
            : undefined;
    if (out === undefined) throw new UsageError('--coverage alone writes text, json or markdown');
    if (options.out) await writeFile(options.out, out);
    else io.out(out.trimEnd());
    for (const p of problems) io.err(p);
    return problems.length > 0 ? ExitCode.invalid : ExitCode.ok;
  } catch (error) {
    if (error instanceof ConformanceUsageError || error instanceof RegistryLookupError)
      throw new UsageError(error.message);
    throw error;
  }
}

/**
 * `--client <command>`: the version's client scenarios against the client `<command>` (the scripted agent's URL
 * appended), reported as a server run is, with the client requirements coverage after the checks under `--coverage`.
 * Exit codes as for servers; a command that cannot start is a usage error. `--client --coverage` without a command
 * lists the client requirements and runs nothing.
 */
async function clientConformance(
  target: string | undefined,
  options: ConformanceCommandOptions,
  io: Output,
): Promise<number> {
  if (target !== undefined)
    throw new UsageError('with --client the kit starts the agent itself: give no base URL');
  const refused = (['fuzz', 'checkDeadline', 'deadline', 'header', 'sideEffects'] as const).filter(
    (k) => options[k] !== undefined,
  );
  if (refused.length > 0)
    throw new UsageError(`--client does not take ${refused.map((k) => `--${kebab(k)}`).join(', ')}`);
  if (typeof options.client !== 'string') {
    if (!options.coverage)
      throw new UsageError(
        'give the client command to run (--client "<command>"), or --coverage to list the client requirements',
      );
    if (options.scenario !== undefined || options.expectedFailures !== undefined)
      throw new UsageError('--client --coverage without a command runs nothing: give the command to run');
    return coverageOnly(options, io, 'client');
  }
  const level = options.level ?? 'all';
  if (!isOneOf(LEVELS, level)) throw new UsageError(`--level must be one of ${LEVELS.join(', ')}`);
  const reporter = options.reporter ?? 'text';
  if (!isOneOf(REPORTERS, reporter))
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}`);
  const timeoutMs = milliseconds(options.timeout, '--timeout');
  try {
    let expectedFailures = {};
    if (options.expectedFailures) {
      const text = await readFile(options.expectedFailures, 'utf8').catch(() => {
        throw new UsageError(`cannot read ${options.expectedFailures}`);
      });
      const file = await loadClientScenarios(await resolveBinding(options.protocol));
      const ids = clientChecks(file).map((c) => c.id);
      expectedFailures = parseExpectedFailures(text, ids, options.expectedFailures);
    }
    const report = await runClientConformance({
      protocol: options.protocol,
      client: options.client,
      level,
      expectedFailures,
      ...(options.coverage ? { coverage: true } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(options.scenario ? { scenarios: options.scenario } : {}),
      ...(reporter === 'text'
        ? { onResult: (r) => io.out(paintResult(resultLine(r), io.paint ?? plain)) }
        : {}),
    });
    const rendered = render(report, reporter);
    if (options.out) await writeFile(options.out, rendered);
    if (reporter === 'text') {
      // The checks were shown as they finished; the coverage table and the summary follow them.
      if (report.coverage) io.out(renderCoverage(report.coverage, 'text').trimEnd());
      const summary = rendered.trimEnd().split('\n').at(-1) ?? '';
      io.out((io.paint ?? plain)(passed(report) ? 'green' : 'red', summary));
    } else if (!options.out) io.out(rendered.trimEnd());
    return passed(report) ? ExitCode.ok : ExitCode.invalid;
  } catch (error) {
    if (
      error instanceof ConformanceUsageError ||
      error instanceof ExpectedFailuresError ||
      error instanceof RegistryLookupError
    )
      throw new UsageError(error.message);
    throw error;
  }
}

/** `checkDeadline` as its option is spelled, `check-deadline`. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
