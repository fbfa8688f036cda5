// Runs a suite: each check in the scenario's order, recorded pass, fail or skip; checks the scenario never reached
// fail; the wire-schema check over every validated message runs last. When the suite's probe says the agent does not
// speak the protocol at all, its check fails with that one diagnosis and every other check is blocked.
import type { Suite, SuiteContext } from '@agentproto/runtime/contract';
import { DeadlinePassed, untilAborted, withCheckSignal } from './deadlines.js';
import { messageOf } from './message-of.js';
import { notSpoken, watchedSession } from './probe.js';
import type { Session } from './session.js';
import {
  type CheckDefinition,
  CheckFailure,
  type CheckResult,
  CheckSkipped,
  type Level,
  type Report,
} from './types.js';

export type { Suite, SuiteContext };

/** Which checks to run: MUST only, MUST and SHOULD, or all. */
export type LevelFilter = 'must' | 'should' | 'all';

const INCLUDED: Readonly<Record<LevelFilter, readonly Level[]>> = {
  must: ['MUST'],
  should: ['MUST', 'SHOULD'],
  all: ['MUST', 'SHOULD', 'MAY'],
};

/** The id of the check every suite ends with: every message of the run against its schema. */
export function wireCheckId(suite: Suite): string {
  const wire = suite.checks.find((c) => c.id.endsWith('.wire.schemas'));
  if (!wire) throw new Error(`suite ${suite.protocol} has no wire-schema check`);
  return wire.id;
}

/** Progress, as checks finish (the text reporter prints it). */
export type OnResult = (result: CheckResult) => void;

/** What a suite's scenario told the schema-driven checks. */
export interface Learned {
  offered: ReadonlyMap<string, readonly string[]>;
  /** Where the HTTP surface is served (undefined: at the root; null: nowhere). */
  surfaceAt?: string | null;
  /** Where the JSON-RPC surface is served (undefined: at the root; null: nowhere). */
  rpcAt?: string | null;
}

/** Checks a run adds after the suite's scenario (the schema-driven ones), and what runs them. */
export interface ExtraChecks {
  checks: readonly CheckDefinition[];
  /**
   * Runs after the scenario, with what the scenario learned: the path parameter values it offered, and where the
   * surface is served (undefined: at the root; null: nowhere).
   */
  run(context: SuiteContext, learned: Learned): Promise<void>;
}

/** The prefix of a suite's check ids (`ap` for `ap.wire.schemas`): the schema-driven checks take it too. */
export function checkPrefix(suite: Suite): string {
  return wireCheckId(suite).slice(0, -'.wire.schemas'.length);
}

/** The deadlines a suite runs under, and what its checks may do. */
export interface RunDeadlines {
  /** Whether checks may call what the agent declares may change something (SuiteContext.sideEffects; default false). */
  sideEffects?: boolean;
  /** The run's signal: aborted when the run's deadline passes (its reason says so); no check starts after it. */
  signal?: AbortSignal;
  /** How long one check may take, in milliseconds; past it the check fails as cut and its requests are aborted. */
  checkDeadlineMs?: number;
}

/** Runs a suite against a session and returns the report (before expected failures are applied). */
export async function runSuite(
  suite: Suite,
  session: Session,
  level: LevelFilter,
  onResult?: OnResult,
  extra?: ExtraChecks,
  deadlines: RunDeadlines = {},
): Promise<Report> {
  const runSignal = deadlines.signal ?? new AbortController().signal;
  const all = [...suite.checks, ...(extra?.checks ?? [])];
  const definitions = new Map(all.map((c) => [c.id, c]));
  const learned: { offered: Map<string, string[]>; surfaceAt?: string | null; rpcAt?: string | null } = {
    offered: new Map(),
  };
  const results = new Map<string, CheckResult>();
  const wire = wireCheckId(suite);
  const record = (result: CheckResult) => {
    results.set(result.id, result);
    onResult?.(result);
  };
  const probe = suite.probe;
  if (probe && !definitions.has(probe.check))
    throw new Error(`suite ${suite.protocol} probes with an undeclared check ${probe.check}`);
  let probing = false;
  const watched = probe ? watchedSession(session, probe.request, () => probing) : undefined;
  /** Set when the probe's answer says the agent does not speak the protocol: every later check is blocked. */
  let diagnosis: string | undefined;
  const blocked = (def: CheckDefinition): CheckResult => ({
    id: def.id,
    level: def.level,
    ref: def.ref,
    status: 'blocked',
    message: `blocked by ${probe?.check}`,
  });
  const context: SuiteContext = {
    session: watched?.session ?? session,
    sideEffects: deadlines.sideEffects ?? false,
    async check(id, fn) {
      const def = definitions.get(id);
      if (!def) throw new Error(`suite ${suite.protocol} runs an undeclared check ${id}`);
      if (!INCLUDED[level].includes(def.level)) return false;
      if (diagnosis !== undefined) {
        if (!results.has(id)) record(blocked(def));
        return false;
      }
      // After the run's deadline no check starts (the local wire check aside): the report lists them as cut.
      if (runSignal.aborted && id !== wire) return false;
      const base = { id, level: def.level, ref: def.ref };
      probing = id === probe?.check;
      const own = new AbortController();
      const ms = deadlines.checkDeadlineMs;
      const timer =
        ms === undefined
          ? undefined
          : setTimeout(() => own.abort(new DeadlinePassed(`the check's deadline of ${ms} ms passed`)), ms);
      const signal = AbortSignal.any([own.signal, runSignal]);
      try {
        const seen = await untilAborted(
          withCheckSignal(signal, async () => fn()),
          id === wire ? own.signal : signal,
        );
        record({ ...base, status: 'pass', message: seen ?? def.title });
        return true;
      } catch (error) {
        if (signal.aborted && id !== wire) {
          // Cut: whatever made it fail, the deadline is why. What the check still had in flight is aborted below.
          record({ ...base, status: 'fail', message: `cut: ${messageOf(signal.reason)}` });
          return false;
        }
        if (error instanceof CheckSkipped) {
          record({ ...base, status: 'skip', message: error.message });
          return false;
        }
        const message =
          error instanceof CheckFailure
            ? error.message
            : `the check could not be carried out: ${messageOf(error)}`;
        // The probe failed: when its answer says the agent does not speak the protocol, that is the one diagnosis.
        const answer = probing ? watched?.answer() : undefined;
        const why = answer && notSpoken(answer);
        if (why)
          diagnosis = `${session.target.label} does not answer as ${session.binding.protocol}@${session.binding.version}: ${answer.exchange.label} → ${why}`;
        record({ ...base, status: 'fail', message: diagnosis ?? message });
        return false;
      } finally {
        probing = false;
        clearTimeout(timer);
        // A finished check leaves nothing running: a stream it stopped reading is closed.
        own.abort(new DeadlinePassed('the check ended'));
      }
    },
    requirePassed(id) {
      if (results.get(id)?.status !== 'pass')
        throw new CheckFailure(
          `cannot be carried out: ${id} did not pass${results.has(id) ? '' : ' (it did not run)'}`,
        );
    },
    offer(parameter, value) {
      const list = learned.offered.get(parameter) ?? [];
      if (!list.includes(value)) list.push(value);
      learned.offered.set(parameter, list);
    },
    surfaceAt(path, kind = 'http') {
      if (kind === 'http') learned.surfaceAt = path;
      else learned.rpcAt = path;
    },
  };
  // The scenario is abandoned when the run's deadline passes: a check it is waiting on has been cut already.
  try {
    await untilAborted(suite.run(context), runSignal);
    if (extra && diagnosis === undefined) await untilAborted(extra.run(context, learned), runSignal);
  } catch (error) {
    if (!runSignal.aborted) throw error;
  }
  await context.check(wire, () => {
    // Checking no message is not a pass: the run saw nothing the schemas describe.
    if (session.messagesValidated === 0)
      throw new CheckFailure(
        'no message was validated: the agent answered nothing the schemas describe. If every request got a 404, ' +
          "the base URL is probably not the agent's root",
      );
    if (session.wireFailures.length > 0) {
      const shown = session.wireFailures.slice(0, 5).join('; ');
      const more = session.wireFailures.length > 5 ? ` (and ${session.wireFailures.length - 5} more)` : '';
      throw new CheckFailure(
        `${session.messagesFailed} of ${session.messagesValidated + session.messagesUnreadable} messages break their schemas: ${shown}${more}`,
      );
    }
    return `${session.messagesValidated} messages validated against the ${session.binding.protocol}@${session.binding.version} schemas`;
  });
  // Checks the scenario never reached (for example after an early failure) fail: they could not be carried out; after
  // a probe that says the agent does not speak the protocol, they are blocked like the rest.
  for (const def of all) {
    if (!results.has(def.id) && INCLUDED[level].includes(def.level))
      record(
        diagnosis !== undefined
          ? blocked(def)
          : {
              id: def.id,
              level: def.level,
              ref: def.ref,
              status: 'fail',
              message: runSignal.aborted
                ? `cut: ${messageOf(runSignal.reason)} before it ran`
                : 'the check could not be carried out: the scenario did not reach it',
            },
      );
  }
  const checks = all.map((c) => results.get(c.id)).filter((r): r is CheckResult => r !== undefined);
  return {
    protocol: session.binding.protocol,
    version: session.binding.version,
    target: session.target.label,
    summary: summarize(checks, session.messagesValidated),
    checks,
    ...(diagnosis === undefined ? {} : { diagnosis }),
  };
}

/** Counts a report's results. */
export function summarize(checks: readonly CheckResult[], messagesValidated: number): Report['summary'] {
  return {
    passed: checks.filter((c) => c.status === 'pass' && !c.staleExpectation).length,
    failed: checks.filter((c) => (c.status === 'fail' && !c.expectedFailure) || c.staleExpectation).length,
    skipped: checks.filter((c) => c.status === 'skip').length,
    blocked: checks.filter((c) => c.status === 'blocked').length,
    expectedFailures: checks.filter((c) => c.expectedFailure).length,
    staleExpectations: checks.filter((c) => c.staleExpectation).length,
    messagesValidated,
  };
}

/**
 * Whether the run passes: no MUST check failed (expected failures aside) or is blocked (the agent does not answer as
 * the protocol), and no expected-failures entry went stale.
 */
export function passed(report: Report): boolean {
  return !report.checks.some(
    (c) =>
      (c.status === 'fail' && !c.expectedFailure && c.level === 'MUST') ||
      (c.status === 'blocked' && c.level === 'MUST') ||
      c.staleExpectation,
  );
}
