// runConformance: resolves the protocol's binding and suite, probes the target, runs the suite through a session that
// validates every message, and applies the expected-failures file.

import { describeFetchError } from '@agentproto/runtime/contract';
import { type FuzzOptions, fuzzChecks, runFuzz } from './fuzz/fuzz.js';
import { type CoverageRow, coverageOf, coverageProblems } from './kit/coverage.js';
import {
  DEFAULT_CHECK_DEADLINE_MS,
  DEFAULT_DEADLINE_MS,
  DeadlinePassed,
  guardedTarget,
} from './kit/deadlines.js';
import { annotate, applyExpectedFailures, type ExpectedFailures } from './kit/expected-failures.js';
import type { Suite } from './kit/run.js';
import { checkPrefix, type ExtraChecks, type LevelFilter, type OnResult, runSuite } from './kit/run.js';
import { promiseWithTimeout, Session, type Target } from './kit/session.js';
import type { CheckDefinition, ProtocolBinding, Report } from './kit/types.js';
import { ConformanceUsageError, suiteOf } from './kit/usage-error.js';

/** How long one request (or one stream chunk) may take by default, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** `<id>[@<version>]`, such as `agentscope@1.1`. */
  protocol: string;
  /** The server's root URL, or an app to call in memory (anything with a `fetch`, such as a Hono app). */
  target: string | { fetch: (request: Request) => Response | Promise<Response> };
  /** Which checks to run (default all). */
  level?: LevelFilter;
  /** How long one request (or one stream chunk) may take, in milliseconds (default DEFAULT_TIMEOUT_MS, 10 s). */
  timeoutMs?: number;
  /**
   * How long one check may take, in milliseconds (default DEFAULT_CHECK_DEADLINE_MS, 60 s): past it the check fails
   * as cut, and its requests are aborted. An agent that streams forever or drips its answer meets this deadline.
   */
  checkDeadlineMs?: number;
  /**
   * How long the whole run may take, in milliseconds (default DEFAULT_DEADLINE_MS, 5 min): past it the running check
   * and every check not yet run fail as cut, and every request still open is aborted.
   */
  deadlineMs?: number;
  /** Known failures: check id → reason. */
  expectedFailures?: ExpectedFailures;
  /** Told about each check as it finishes. */
  onResult?: OnResult;
  /**
   * Adds the schema-driven checks: this many requests built from the version's surface, valid and near-valid, from a
   * seed, within a time budget (`<prefix>.fuzz.valid`, `.invalid`, `.declared`).
   */
  fuzz?: FuzzOptions;
  /** Adds the requirements coverage table to the report, with each requirement's result. */
  coverage?: boolean;
  /**
   * Headers every request of the run carries (an agent behind a token: `{ Authorization: 'Bearer …' }`), the probe's
   * and the fuzz requests' included; a header a check sets itself (a protocol's version header) is left as the check
   * sets it.
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * Lets checks call what the agent declares may change something (an MCP tool not annotated `readOnlyHint`): off by
   * default, so that a run against a live agent only reads.
   */
  sideEffects?: boolean;
}

/**
 * The target did not answer at all: nothing can be checked (exit code 2). A connection refused says so in one line:
 * `connection refused: is the agent running at http://127.0.0.1:8000?`.
 */
export class TargetUnreachable extends Error {
  override name = 'TargetUnreachable';
}

/**
 * Runs a protocol's conformance suite against a live agent (by URL) or an app in memory, and returns the report.
 * Every answer and stream event is validated against the protocol's schemas along the way.
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const { binding, suite } = await suiteOf(options.protocol);
  const timeoutMs = positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'the timeout');
  const checkDeadlineMs = positive(
    options.checkDeadlineMs ?? DEFAULT_CHECK_DEADLINE_MS,
    "a check's deadline",
  );
  const deadlineMs = positive(options.deadlineMs ?? DEFAULT_DEADLINE_MS, "the run's deadline");
  const given = toTarget(options.target);
  if (typeof options.target === 'string') refuseRouteAsBase(new URL(given.baseUrl), binding);
  // Every request of the run, the probe's and the fuzz requests included, is aborted at the run's deadline, and at
  // its end: nothing the run abandoned keeps a connection, or the process, alive.
  const run = new AbortController();
  const timer = setTimeout(
    () => run.abort(new DeadlinePassed(`the run's deadline of ${deadlineMs} ms passed`)),
    deadlineMs,
  );
  const target = guardedTarget(withHeaders(given, options.headers ?? {}), run.signal);
  try {
    await probe(target, timeoutMs);
    const extra = options.fuzz ? await fuzzExtra(binding, suite, target, timeoutMs, options.fuzz) : undefined;
    const known = [...suite.checks, ...(extra?.checks ?? [])].map((c) => c.id);
    for (const id of Object.keys(options.expectedFailures ?? {}))
      if (!known.includes(id))
        throw new ConformanceUsageError(`expected failure "${id}" is not a check of ${binding.protocol}`);
    const expected = options.expectedFailures ?? {};
    const onResult = options.onResult;
    // Progress shows each result as the report will: with its expected-failures entry applied.
    const report = await runSuite(
      suite,
      new Session(target, binding, timeoutMs),
      options.level ?? 'all',
      onResult && ((r) => onResult(annotate(r, expected))),
      extra,
      { signal: run.signal, checkDeadlineMs, sideEffects: options.sideEffects ?? false },
    );
    const applied = applyExpectedFailures(report, expected);
    if (!options.coverage) return applied;
    return { ...applied, coverage: coverageOf(binding, allChecks(suite), applied.checks) };
  } finally {
    clearTimeout(timer);
    if (!run.signal.aborted) run.abort(new DeadlinePassed('the run ended'));
  }
}

/** A positive, finite number of milliseconds, or a usage error naming what it is. */
function positive(ms: number, what: string): number {
  if (!Number.isFinite(ms) || ms <= 0)
    throw new ConformanceUsageError(`${what} must be a positive number of milliseconds`);
  return ms;
}

/** Every check a suite can run: its own, and the schema-driven ones `--fuzz` adds. */
function allChecks(suite: Suite): CheckDefinition[] {
  return [...suite.checks, ...fuzzChecks(checkPrefix(suite))];
}

/**
 * The requirements coverage of a protocol version without running anything: each requirement with the checks that
 * cover it (those `--fuzz` adds included), and the problems of how they meet (empty when every requirement is
 * covered or excluded).
 */
export async function requirementsCoverage(
  protocol: string,
): Promise<{ binding: ProtocolBinding; rows: CoverageRow[]; problems: string[] }> {
  const { binding, suite } = await suiteOf(protocol);
  const checks = allChecks(suite);
  return { binding, rows: coverageOf(binding, checks), problems: coverageProblems(binding, checks) };
}

/** The schema-driven checks of a run, over the version's surface; a usage error when the options cannot work. */
async function fuzzExtra(
  binding: ProtocolBinding,
  suite: Suite,
  target: Target,
  timeoutMs: number,
  fuzz: FuzzOptions,
): Promise<ExtraChecks> {
  if (!Number.isInteger(fuzz.requests) || fuzz.requests < 1)
    throw new ConformanceUsageError('the number of schema-driven requests must be a positive integer');
  if (!Number.isInteger(fuzz.seed) || fuzz.seed < 0 || fuzz.seed > 0xffffffff)
    throw new ConformanceUsageError('the seed must be an integer from 0 to 4294967295');
  if (fuzz.timeMs !== undefined && (!Number.isFinite(fuzz.timeMs) || fuzz.timeMs <= 0))
    throw new ConformanceUsageError('the time budget must be a positive number of milliseconds');
  if (!binding.surface)
    throw new ConformanceUsageError(
      `${binding.protocol}@${binding.version} has no surface to build requests from`,
    );
  const surface = await binding.surface();
  const prefix = checkPrefix(suite);
  return {
    checks: fuzzChecks(prefix),
    run: (context, { offered, surfaceAt, rpcAt }) =>
      runFuzz(
        {
          binding,
          surface,
          target,
          // Below the root when the scenario found a surface there (A2A: the card's interface URLs); null: none.
          http: surfaceAt === null ? null : below(target.baseUrl, surfaceAt ?? '/'),
          rpc: rpcAt === null || !surface.rpc ? null : endpoint(target.baseUrl, rpcAt ?? '/'),
          timeoutMs,
          headers: suite.requestHeaders ?? {},
          ...(suite.rpcHeaders ? { rpcHeaders: suite.rpcHeaders } : {}),
          ...(suite.rpcErrorStatuses ? { rpcErrorStatuses: suite.rpcErrorStatuses } : {}),
          ...(suite.refusesInStream ? { refusesInStream: suite.refusesInStream } : {}),
          offered,
        },
        fuzz,
        context,
        prefix,
      ),
  };
}

/**
 * The part of a base URL's path that is the start of one of the protocol's own paths (the reference agents print
 * `…/ap/v1/agent/tasks` and `…/process`, and those are easy to paste), if there is one. A route whose first segment is
 * a template (`/{func}`) matches nothing, so an agent mounted under any prefix is never mistaken for a route.
 */
export function routeInBaseUrl(url: URL, paths: readonly string[]): string | undefined {
  const segments = url.pathname.split('/').filter(Boolean);
  let longest: string[] = [];
  for (const p of paths) {
    const route = p.split('/').filter(Boolean);
    for (let k = Math.min(route.length, segments.length); k > longest.length; k--) {
      const tail = segments.slice(-k);
      const head = route.slice(0, k);
      if (/^\{.*\}$/.test(head[0] ?? '')) break;
      if (head.every((h, i) => /^\{.*\}$/.test(h) || h === tail[i])) {
        longest = tail;
        break;
      }
    }
  }
  return longest.length > 0 ? `/${longest.join('/')}` : undefined;
}

/** Refuses (a usage error) a base URL that is one of the agent's routes rather than its root, saying which root. */
function refuseRouteAsBase(url: URL, binding: ProtocolBinding): void {
  const route = routeInBaseUrl(url, binding.paths ?? []);
  if (!route) return;
  const root = new URL(url.href);
  root.pathname = url.pathname.replace(/\/$/, '').slice(0, -route.length) || '/';
  throw new ConformanceUsageError(
    `${url.href} ends with ${route}, one of ${binding.protocol}'s own paths; the kit adds those itself. ` +
      `Pass the agent's root: ${root.href.replace(/\/$/, '')}`,
  );
}

function toTarget(target: ConformanceOptions['target']): Target {
  if (typeof target !== 'string') {
    const app = target;
    return { baseUrl: 'http://app/', fetch: (request) => app.fetch(request), label: 'app' };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new ConformanceUsageError(
      `"${target}" is not a URL: give the server's root, as http://127.0.0.1:8000`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConformanceUsageError(`"${target}" is not an http(s) URL`);
  return { baseUrl: url.href, fetch: (request) => fetch(request), label: url.href.replace(/\/$/, '') };
}

/** Whether the target can be reached at all: a connection refused, or any other failure to answer, ends the run. */
async function probe(target: Target, timeoutMs: number): Promise<void> {
  try {
    // The timer is cleared once the target answers: a pending one would keep the process alive for the whole timeout.
    const response = await promiseWithTimeout(
      Promise.resolve(target.fetch(new Request(target.baseUrl))),
      timeoutMs,
      'GET /',
    );
    await response.body?.cancel();
  } catch (error) {
    if (refused(error))
      throw new TargetUnreachable(`connection refused: is the agent running at ${target.label}?`);
    throw new TargetUnreachable(`${target.label} is unreachable: ${describeFetchError(error)}`);
  }
}

/** Whether a fetch failed because nothing listens at the address (ECONNREFUSED, on any of the addresses tried). */
function refused(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const e = pending.pop();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    if ('code' in e && e.code === 'ECONNREFUSED') return true;
    if ('cause' in e) pending.push(e.cause);
    if (e instanceof AggregateError) pending.push(...e.errors);
  }
  return false;
}

/** The URL of `path` (`/jsonrpc`, relative to `base`) itself: a JSON-RPC endpoint. */
function endpoint(base: string, path: string): string {
  return new URL(`.${path}`, base.endsWith('/') ? base : `${base}/`).href;
}

/** `base` with `path` (`/a2a/rest`, relative to it) appended, ending with a slash. */
function below(base: string, path: string): string {
  return new URL(`.${path.replace(/\/$/, '')}/`, base.endsWith('/') ? base : `${base}/`).href;
}

/** A target whose every request carries `headers`, where the request does not set the header itself. */
export function withHeaders(target: Target, headers: Readonly<Record<string, string>>): Target {
  const added = Object.entries(headers);
  if (added.length === 0) return target;
  return {
    ...target,
    fetch: async (request) => {
      const merged = new Headers(request.headers);
      for (const [name, value] of added) if (!merged.has(name)) merged.set(name, value);
      // The kit's own requests: their bodies are small and read whole, so the copy needs no streaming body.
      const body = request.body === null ? undefined : await request.arrayBuffer();
      const init = { method: request.method, headers: merged, signal: request.signal };
      return target.fetch(new Request(request.url, body === undefined ? init : { ...init, body }));
    },
  };
}
