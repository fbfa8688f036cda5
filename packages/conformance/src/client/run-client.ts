// runClientConformance: checks a CLIENT of a protocol version. For each of the version's client scenarios (data, see
// scenarios.ts) it starts the scripted agent on 127.0.0.1, runs the client once with the agent's URL (a command, with
// AGENTPROTO_SCENARIO naming the scenario as MCP's conformance runner does, or a function in memory), and judges what
// the client sent (every request against the version's schemas and header rules) and how it ended (the scenario's
// sequence and outcome, within the timeout). The report and expected failures are the server kit's.
import { spawn } from 'node:child_process';
import { RegistryLookupError, resolveBinding } from '@agentproto/registry';
import type { ProtocolBinding } from '@agentproto/runtime/contract';
import { type CoverageRow, coverageOf, coverageProblems } from '../kit/coverage.js';
import { annotate, applyExpectedFailures, type ExpectedFailures } from '../kit/expected-failures.js';
import { messageOf } from '../kit/message-of.js';
import type { LevelFilter, OnResult } from '../kit/run.js';
import { summarize } from '../kit/run.js';
import type { CheckDefinition, CheckResult, Level, Report } from '../kit/types.js';
import { ConformanceUsageError } from '../kit/usage-error.js';
import {
  acceptScenarioFile,
  CLIENT_REQUESTS_REQUIREMENT,
  type ClientScenario,
  type ClientScenarioFile,
  type HeaderRule,
  loadClientScenarios,
} from './scenarios.js';
import { excerpt, type RecordedRequest, startScriptedAgent } from './scripted-agent.js';

/** How long one scenario's client may run by default, in milliseconds: past it its process group is killed. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 30_000;

/** The most output of a client kept per scenario (stdout and stderr together), in bytes. */
export const MAX_CLIENT_OUTPUT_BYTES = 64 * 1024;

/** How a client run in memory ended. */
export interface ClientExit {
  exitCode: number;
  /** What it printed (where an error it reports would show). */
  output?: string;
}

/** A client in memory (tests): given the agent's URL, the scenario and a signal aborted at the timeout. */
export type InProcessClient = (url: string, scenario: string, signal: AbortSignal) => Promise<ClientExit>;

/** Options of {@link runClientConformance}. */
export interface ClientConformanceOptions {
  /** `<id>[@<version>]`. */
  protocol: string;
  /** The command to run (the agent's URL is appended last), or a client in memory. */
  client: string | InProcessClient;
  /** How long one scenario's client may run, in milliseconds (default DEFAULT_CLIENT_TIMEOUT_MS). */
  timeoutMs?: number;
  level?: LevelFilter;
  expectedFailures?: ExpectedFailures;
  /**
   * Client scenarios to run instead of the version's file (checked the same way against the version): scenarios of
   * one's own, or a test's.
   */
  file?: ClientScenarioFile;
  /** Only these scenarios (default: all of the version's). */
  scenarios?: readonly string[];
  /** Adds the client requirements coverage table to the report, with each requirement's result. */
  coverage?: boolean;
  onResult?: OnResult;
}

/** What one scenario's run left to judge. */
interface ScenarioRun {
  scenario: ClientScenario;
  requests: readonly RecordedRequest[];
  dropped: number;
  exit: ClientExit | undefined;
  timedOut: boolean;
}

const INCLUDED: Readonly<Record<LevelFilter, readonly Level[]>> = {
  must: ['MUST'],
  should: ['MUST', 'SHOULD'],
  all: ['MUST', 'SHOULD', 'MAY'],
};

/**
 * The checks of a version's client scenarios: the requests' schemas, each header rule, each scenario; each with the
 * client requirements it covers (the requests' check: `client.requests`; the others: their `covers`).
 */
export function clientChecks(file: ClientScenarioFile): CheckDefinition[] {
  const p = `${file.checkPrefix}.client`;
  return [
    {
      id: `${p}.requests`,
      level: 'MUST',
      title: 'every request is an operation or method of the version, and validates against its schema',
      ref: "the version's OpenAPI and OpenRPC documents",
      covers: [CLIENT_REQUESTS_REQUIREMENT],
    },
    ...(file.headers ?? []).map((h) => ({
      id: `${p}.header.${h.name.toLowerCase()}`,
      level: h.level,
      title: `requests carry ${h.name}${h.equals === undefined ? '' : `: ${h.equals}`}`,
      ref: h.ref,
      covers: [...(h.covers ?? [])],
    })),
    ...file.scenarios.map((s) => ({
      id: `${p}.scenario.${s.id}`,
      level: s.level,
      title: s.title,
      ref: s.ref,
      covers: [...(s.covers ?? [])],
    })),
  ];
}

/** Runs a version's client scenarios against a client and returns the report (expected failures applied). */
export async function runClientConformance(options: ClientConformanceOptions): Promise<Report> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new ConformanceUsageError('the timeout must be a positive number of milliseconds');
  if (typeof options.client === 'string' && options.client.trim() === '')
    throw new ConformanceUsageError('give the client command to run');
  const binding = await bindingOf(options.protocol);
  const file = options.file
    ? await acceptScenarioFile(options.file, binding, 'the client scenarios given')
    : await loadClientScenarios(binding);
  if (!binding.surface)
    throw new ConformanceUsageError(
      `${binding.protocol}@${binding.version} has no surface to script an agent from`,
    );
  const surface = await binding.surface();
  const definitions = clientChecks(file);
  const expected = options.expectedFailures ?? {};
  for (const id of Object.keys(expected))
    if (!definitions.some((d) => d.id === id))
      throw new ConformanceUsageError(
        `expected failure "${id}" is not a client check of ${binding.protocol}`,
      );
  const wanted = options.scenarios;
  for (const id of wanted ?? [])
    if (!file.scenarios.some((s) => s.id === id))
      throw new ConformanceUsageError(
        `${binding.protocol}@${binding.version} has no client scenario "${id}"; known: ${file.scenarios.map((s) => s.id).join(', ')}`,
      );
  const level = options.level ?? 'all';
  const scenarios = file.scenarios.filter(
    (s) => (wanted === undefined || wanted.includes(s.id)) && INCLUDED[level].includes(s.level),
  );
  const runs: ScenarioRun[] = [];
  let validated = 0;
  for (const scenario of scenarios) {
    const agent = await startScriptedAgent(binding, surface, file, scenario);
    try {
      const ended = await runClient(options.client, agent.url, scenario.id, timeoutMs);
      // A command the shell could not find or run: nothing can be judged (a usage error, exit code 2).
      if (ended.exit?.exitCode === 127 || ended.exit?.exitCode === 126)
        if (agent.requests.length === 0)
          throw new ConformanceUsageError(
            `the client command could not start (exit ${ended.exit.exitCode}): ${(ended.exit.output ?? '').trim() || String(options.client)}`,
          );
      runs.push({ scenario, requests: [...agent.requests], dropped: agent.dropped, ...ended });
      validated += agent.validated;
    } finally {
      await agent.close();
    }
  }
  const judged = judge(file, definitions, runs, level, binding);
  for (const r of judged) options.onResult?.(annotate(r, expected));
  const report: Report = {
    protocol: binding.protocol,
    version: binding.version,
    target: typeof options.client === 'string' ? `client: ${options.client}` : 'client: in memory',
    summary: summarize(judged, validated),
    checks: judged,
  };
  const applied = applyExpectedFailures(report, expected);
  if (!options.coverage) return applied;
  return { ...applied, coverage: coverageOf(binding, definitions, applied.checks, 'client') };
}

/**
 * The client requirements coverage of a protocol version without running anything: each requirement of its
 * client-requirements.yaml with the client checks that cover it, and what is wrong with how they meet.
 */
export async function clientRequirementsCoverage(
  protocol: string,
): Promise<{ binding: ProtocolBinding; rows: CoverageRow[]; problems: string[] }> {
  const binding = await bindingOf(protocol);
  const checks = clientChecks(await loadClientScenarios(binding));
  return {
    binding,
    rows: coverageOf(binding, checks, undefined, 'client'),
    problems: coverageProblems(binding, checks, 'client'),
  };
}

async function bindingOf(spec: string): Promise<ProtocolBinding> {
  try {
    return await resolveBinding(spec);
  } catch (error) {
    if (error instanceof RegistryLookupError)
      throw new ConformanceUsageError(error.message, { cause: error });
    throw error;
  }
}

/** Runs the client once; never longer than the timeout (a command's process group is killed then). */
async function runClient(
  client: string | InProcessClient,
  url: string,
  scenario: string,
  timeoutMs: number,
): Promise<{ exit: ClientExit | undefined; timedOut: boolean }> {
  if (typeof client !== 'string') {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const ended = await Promise.race([
        client(url, scenario, abort.signal).catch((error: unknown) => ({
          exitCode: 1,
          output: messageOf(error),
        })),
        timeout,
      ]);
      if (ended === 'timeout') {
        abort.abort();
        return { exit: undefined, timedOut: true };
      }
      return { exit: ended, timedOut: false };
    } finally {
      clearTimeout(timer);
    }
  }
  return new Promise((resolve, reject) => {
    // The URL goes last, as MCP's conformance runner appends it; it is 127.0.0.1 and a port: nothing to quote.
    const child = spawn(`${client} ${url}`, {
      shell: true,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, AGENTPROTO_SCENARIO: scenario },
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      if (output.length < MAX_CLIENT_OUTPUT_BYTES)
        output += chunk.toString('utf8').slice(0, MAX_CLIENT_OUTPUT_BYTES - output.length);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let timedOut = false;
    const killGroup = () => {
      try {
        // The negative pid is the process group the detached shell leads: the client and anything it started.
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new ConformanceUsageError(`the client command could not start: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // What the client left running is stopped too: nothing of a scenario outlives it.
      killGroup();
      resolve({
        exit: timedOut ? undefined : { exitCode: code ?? (signal ? 128 : 1), output },
        timedOut,
      });
    });
    child.once('exit', () => killGroup());
  });
}

/** The results of the client checks, from what each scenario's client sent and how it ended. */
function judge(
  file: ClientScenarioFile,
  definitions: readonly CheckDefinition[],
  runs: readonly ScenarioRun[],
  level: LevelFilter,
  binding: ProtocolBinding,
): CheckResult[] {
  const p = `${file.checkPrefix}.client`;
  const results: CheckResult[] = [];
  const result = (id: string, status: CheckResult['status'], message: string) => {
    const d = definitions.find((x) => x.id === id);
    if (!d || !INCLUDED[level].includes(d.level)) return;
    results.push({ id, level: d.level, status, message, ref: d.ref });
  };
  const all = runs.flatMap((r) => r.requests.map((q) => ({ run: r, q })));
  const sentNothing = all.length === 0;
  // Requests.
  const invalid = all.filter(({ q }) => q.problems.length > 0);
  if (sentNothing) result(`${p}.requests`, 'fail', 'the client sent no request in any scenario');
  else if (invalid.length > 0)
    result(
      `${p}.requests`,
      'fail',
      invalid
        .slice(0, 5)
        .map(
          ({ run, q }) =>
            `${run.scenario.id}: request ${q.index}: ${q.problems.join('; ')}; it sent: ${excerpt(q.text)}`,
        )
        .join(' | ') + (invalid.length > 5 ? ` | and ${invalid.length - 5} more` : ''),
    );
  else
    result(
      `${p}.requests`,
      'pass',
      `${all.length} requests, each an operation of ${binding.protocol}@${binding.version} that validates`,
    );
  // Header rules.
  for (const rule of file.headers ?? []) {
    const id = `${p}.header.${rule.name.toLowerCase()}`;
    const applies = all.filter(({ q }) => appliesTo(rule, q));
    const broken = applies
      .map(({ run, q }) => ({ run, q, why: headerProblem(rule, q) }))
      .filter((x) => x.why !== undefined);
    if (applies.length === 0) result(id, 'skip', `no request the rule applies to was sent`);
    else if (broken.length > 0)
      result(
        id,
        'fail',
        broken
          .slice(0, 3)
          .map(
            ({ run, q, why }) =>
              `${run.scenario.id}: request ${q.index} (${q.method} ${q.path}${q.name ? `, ${q.name}` : ''}) ${why}`,
          )
          .join(' | ') + (broken.length > 3 ? ` | and ${broken.length - 3} more` : ''),
      );
    else result(id, 'pass', `${applies.length} requests carry it`);
  }
  // Scenarios.
  for (const run of runs) {
    const id = `${p}.scenario.${run.scenario.id}`;
    const problems = scenarioProblems(run);
    result(
      id,
      problems.length > 0 ? 'fail' : 'pass',
      problems.length > 0 ? problems.join('; ') : sentSummary(run),
    );
  }
  return results;
}

/** Whether a rule applies to a request: a request that is none of the version's operations is held to every rule. */
function appliesTo(rule: HeaderRule, q: RecordedRequest): boolean {
  if (q.name === undefined) return rule.only === undefined;
  if (rule.only && !rule.only.includes(q.name)) return false;
  return !rule.except?.includes(q.name);
}

function headerProblem(rule: HeaderRule, q: RecordedRequest): string | undefined {
  const value = q.headers[rule.name.toLowerCase()];
  if (value === undefined) return `has no ${rule.name} header`;
  if (rule.equals !== undefined && value.trim() !== rule.equals)
    return `sent ${rule.name}: ${value}, not ${rule.equals}`;
  const missing = (rule.includes ?? []).filter((t) => !value.toLowerCase().includes(t.toLowerCase()));
  if (missing.length > 0) return `sent ${rule.name}: ${value}, without ${missing.join(', ')}`;
  return undefined;
}

/** What a scenario's client did wrong: ended late, ended the wrong way, or missed a step of the sequence. */
function scenarioProblems(run: ScenarioRun): string[] {
  const out: string[] = [];
  const expect = run.scenario.expect;
  if (run.timedOut) out.push('the client did not finish within the timeout (its process group was killed)');
  if (run.dropped > 0)
    out.push(
      `the client sent more than the ${run.requests.length} requests recorded (${run.dropped} dropped)`,
    );
  const names = run.requests.map((q) => q.name ?? `${q.method} ${q.path}`);
  if (expect.sequence && expect.sequence.length > 0) {
    let at = 0;
    for (const [k, step] of expect.sequence.entries()) {
      const alternatives = step.split('|');
      const found = names.findIndex((n, i) => i >= at && alternatives.includes(n));
      if (found < 0) {
        out.push(
          `expected ${step} ${k === 0 ? 'first' : `after ${expect.sequence[k - 1]}`}; it sent ${names.join(', ') || 'nothing'}`,
        );
        break;
      }
      if (k === 0 && expect.startsWith && found !== 0)
        out.push(`expected ${step} as its first request; it sent ${names[0]} first`);
      at = found + 1;
    }
  }
  const exit = run.exit;
  if (exit) {
    const output = exit.output ?? '';
    if (expect.outcome === 'success' && exit.exitCode !== 0)
      out.push(`the client exited ${exit.exitCode}, not 0: ${excerpt(output.trim())}`);
    if (expect.outcome === 'error' && exit.exitCode === 0) {
      const reported = (expect.reports ?? []).some((r) => output.includes(r));
      if (!reported)
        out.push(
          `the agent answered with an error, yet the client exited 0 without reporting it${expect.reports?.length ? ` (its output has none of ${expect.reports.map((r) => JSON.stringify(r)).join(', ')})` : ''}`,
        );
    }
  }
  return out;
}

function sentSummary(run: ScenarioRun): string {
  const names = run.requests.map((q) => q.name ?? `${q.method} ${q.path}`);
  return `it sent ${names.join(', ') || 'nothing'} and exited ${run.exit?.exitCode ?? '?'}`;
}
