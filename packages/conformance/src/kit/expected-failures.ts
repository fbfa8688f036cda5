// The expected-failures file (after MCP conformance's expected-failures): known failures become warnings, and an entry
// whose check passes fails the run, so the list never goes stale.
import { parse as parseYaml } from 'yaml';
import { messageOf } from './message-of.js';
import { summarize } from './run.js';
import type { CheckResult, Report } from './types.js';

/** Known failures: check id → why it is expected to fail. */
export type ExpectedFailures = Readonly<Record<string, string>>;

/** An expected-failures file that cannot be used: the message says where and why. */
export class ExpectedFailuresError extends Error {
  override name = 'ExpectedFailuresError';
}

/**
 * Reads an expected-failures file: YAML (or JSON) mapping each check id to the reason it is expected to fail.
 * Every id must be a check of the suite, and every reason a non-empty text.
 */
export function parseExpectedFailures(
  text: string,
  knownIds: readonly string[],
  file = 'expected-failures',
): ExpectedFailures {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new ExpectedFailuresError(`${file}: not YAML or JSON: ${messageOf(error)}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ExpectedFailuresError(
      `${file}: expected a mapping of check id to reason, as "ap.task.create: why it fails"`,
    );
  const out: Record<string, string> = {};
  for (const [id, reason] of Object.entries(value)) {
    if (!knownIds.includes(id)) throw new ExpectedFailuresError(`${file}: /${id}: no check has this id`);
    if (typeof reason !== 'string' || reason.trim() === '')
      throw new ExpectedFailuresError(`${file}: /${id}: give the reason the check is expected to fail`);
    out[id] = reason;
  }
  return out;
}

/** One result with its expected-failures entry applied (see applyExpectedFailures). */
export function annotate(result: CheckResult, expected: ExpectedFailures): CheckResult {
  const reason = expected[result.id];
  if (reason === undefined) return result;
  if (result.status === 'fail')
    return { ...result, expectedFailure: true, message: `expected to fail (${reason}): ${result.message}` };
  if (result.status === 'pass')
    return {
      ...result,
      staleExpectation: true,
      message: `listed as expected to fail (${reason}), but it passed: remove the entry`,
    };
  return result;
}

/**
 * Applies expected failures to a report: a listed failure becomes a warning; a listed check that passed is stale and
 * fails the run, so the list cannot rot.
 */
export function applyExpectedFailures(report: Report, expected: ExpectedFailures): Report {
  const checks = report.checks.map((c) => annotate(c, expected));
  return { ...report, checks, summary: summarize(checks, report.summary.messagesValidated) };
}
