// The schema-driven checks (`agentproto conformance --fuzz N`): after the scenario, the kit sends N requests built
// from the version's surface (valid ones, and near-valid ones with one rule broken), judges every answer against the
// declared responses, shrinks each failure to a small request and prints it as a curl command. Seeded, and bounded in
// requests and in time. Three checks report the findings: valid requests answered as declared, invalid requests
// refused with a 4xx, and every answer's status and media type declared.
import {
  type CheckDefinition,
  describeFetchError,
  type SuiteContext,
  type Surface,
  type SurfaceOperation,
  type SurfaceRpcMethod,
  withTimeout,
} from '@agentproto/runtime/contract';
import { messageOf } from '../kit/message-of.js';
import type { Target } from '../kit/session.js';
import type { ProtocolBinding } from '../kit/types.js';
import { CheckFailure, CheckSkipped } from '../kit/types.js';
import { ProbeFactory } from './cases.js';
import { curlCommand } from './curl.js';
import { type Finding, type FuzzCheck, judge } from './judge.js';
import { type FuzzOperation, type Probe, probeLabel, toRequest } from './probe.js';
import { Random } from './random.js';
import { keepsItsSide, smaller } from './shrink.js';

/** How the schema-driven checks run: how many requests, from which seed, within how long. */
export interface FuzzOptions {
  /** How many requests to send (shrinking adds at most SHRINK_BUDGET per failure shown, within the time budget). */
  requests: number;
  /** The seed: the same seed against the same agent sends the same requests. */
  seed: number;
  /** How long the requests and the shrinking may take in all, in milliseconds (default DEFAULT_FUZZ_TIME_MS). */
  timeMs?: number;
}

/** How long the schema-driven requests may take in all by default: one minute. */
export const DEFAULT_FUZZ_TIME_MS = 60_000;
/** How many extra requests shrinking one failure may send. */
const SHRINK_BUDGET = 40;
/** How many failures each check shows (shrunk, with a curl command); the rest are counted. */
const SHOWN = 3;

/** The requirement each schema-driven check covers: every requirements file names these three. */
export const CONTRACT_REQUIREMENTS: Readonly<Record<FuzzCheck, string>> = {
  valid: 'contract.valid-requests',
  invalid: 'contract.invalid-requests',
  declared: 'contract.declared-responses',
};

/** The three schema-driven checks of a suite whose checks start with `prefix` (`ap` → `ap.fuzz.valid`, …). */
export function fuzzChecks(prefix: string): [CheckDefinition, CheckDefinition, CheckDefinition] {
  const ref = 'the OpenAPI document of the version (paths, parameters, request bodies, responses)';
  return [
    {
      id: `${prefix}.fuzz.valid`,
      level: 'MUST',
      title:
        'requests built from the schemas are answered with a declared status, never a 5xx, and a valid body',
      ref,
      covers: [CONTRACT_REQUIREMENTS.valid],
    },
    {
      id: `${prefix}.fuzz.invalid`,
      level: 'MUST',
      title: 'requests with one rule broken are refused with a 4xx, never accepted, never a 5xx',
      ref,
      covers: [CONTRACT_REQUIREMENTS.invalid],
    },
    {
      id: `${prefix}.fuzz.declared`,
      level: 'SHOULD',
      title: 'every answer uses a declared status and media type, with a body its schema allows',
      ref,
      covers: [CONTRACT_REQUIREMENTS.declared],
    },
  ];
}

/** What the campaign needs from the run. */
export interface FuzzRun {
  binding: ProtocolBinding;
  surface: Surface;
  target: Target;
  timeoutMs: number;
  headers: Readonly<Record<string, string>>;
  /** Headers a JSON-RPC call carries that depend on the call (Suite.rpcHeaders). */
  rpcHeaders?: (method: string, params: unknown) => Readonly<Record<string, string>>;
  refusesInStream?: (item: unknown) => boolean;
  /** HTTP statuses besides 200 that may carry a JSON-RPC error (Suite.rpcErrorStatuses). */
  rpcErrorStatuses?: readonly number[];
  /** Path parameter values the scenario offered. */
  offered: ReadonlyMap<string, readonly string[]>;
  /**
   * The base URL of the HTTP surface (the target's root, or below it where the scenario found it), or null when the
   * agent serves none; undefined means the target's root.
   */
  http?: string | null;
  /** The JSON-RPC endpoint, or null when the agent serves none (or the version has no JSON-RPC surface). */
  rpc?: string | null;
}

interface Failure {
  probe: Probe;
  finding: Finding;
}

/** Sends the requests, then runs the three checks over what came back. */
export async function runFuzz(
  run: FuzzRun,
  options: FuzzOptions,
  context: SuiteContext,
  prefix: string,
): Promise<void> {
  const [{ id: valid }, { id: invalid }, { id: declared }] = fuzzChecks(prefix);
  if (run.http === null && !run.rpc) {
    for (const id of [valid, invalid, declared])
      await context.check(id, () => {
        throw new CheckSkipped('the agent claims no surface these requests could use');
      });
    return;
  }
  let outcome: Awaited<ReturnType<typeof campaign>>;
  try {
    outcome = await campaign(run, options);
  } catch (error) {
    const message = `the requests could not be sent: ${messageOf(error)}`;
    for (const id of [valid, invalid, declared])
      await context.check(id, () => {
        throw new CheckFailure(message);
      });
    return;
  }
  const { sent, counts, classes, failures, stopped, operations, deadline } = outcome;
  const spread = (m: ReadonlyMap<string, number>) =>
    [...m]
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  const tail = `(seed ${options.seed}${stopped ? `; stopped after ${sent} requests: ${stopped}` : ''})`;
  const verdict = async (id: string, check: FuzzCheck, what: string, count: number, seen: string) =>
    context.check(id, async () => {
      const mine = failures.filter((f) => f.finding.check === check);
      if (mine.length === 0)
        return `${count} ${what} across ${operations} operations${seen ? `, answered ${seen}` : ''} ${tail}`;
      const shown = [];
      for (const f of dedupe(mine).slice(0, SHOWN)) {
        const small = await shrink(f, run, deadline);
        shown.push(
          `${probeLabel(small.probe)}: ${small.finding.message}\n    ${curlCommand(small.probe, baseOf(small.probe, run), headersOf(small.probe, run))}`,
        );
      }
      throw new CheckFailure(
        `${mine.length} of ${count} ${what} failed ${tail}:\n  ${shown.join('\n  ')}${mine.length > SHOWN ? `\n  (and ${mine.length - SHOWN} more)` : ''}`,
      );
    });
  await verdict(valid, 'valid', 'valid requests', counts.valid, spread(classes.valid));
  await verdict(invalid, 'invalid', 'invalid requests', counts.invalid, spread(classes.invalid));
  await verdict(declared, 'declared', 'answers', sent, '');
}

/** Sends up to `requests` probes, round-robin over the operations: one valid, then one invalid, each round. */
async function campaign(run: FuzzRun, options: FuzzOptions) {
  const random = new Random(options.seed);
  const known = new Map<string, string[]>();
  for (const [k, v] of run.offered) known.set(k, [...v]);
  const factory = new ProbeFactory(run.surface, run.binding, random, known);
  const names = new Set(run.surface.operations.flatMap((o) => o.pathParams.map((p) => p.name)));
  // Operations without path parameters first: they make the resources the others name. JSON-RPC methods after.
  const operations: FuzzOperation[] = [
    ...(run.http === null
      ? []
      : [...run.surface.operations].sort((a, b) => a.pathParams.length - b.pathParams.length)),
    ...(run.rpc
      ? (run.surface.rpc?.methods ?? []).map((m) => rpcOperation(m, run.surface.rpc?.errors ?? []))
      : []),
  ];
  const pending = new Map<SurfaceOperation, Probe[]>();
  const failures: Failure[] = [];
  const counts = { valid: 0, invalid: 0 };
  // Answers by status class, for valid and for invalid requests: what a passing check reports it saw.
  const classes = { valid: new Map<string, number>(), invalid: new Map<string, number>() };
  const deadline = Date.now() + (options.timeMs ?? DEFAULT_FUZZ_TIME_MS);
  let sent = 0;
  let stopped = '';
  let idle = 0;
  while (sent < options.requests) {
    const before = sent;
    for (const operation of operations) {
      for (const wantValid of [true, false]) {
        if (sent >= options.requests) break;
        if (Date.now() > deadline) {
          stopped = `the time budget of ${options.timeMs ?? DEFAULT_FUZZ_TIME_MS} ms ran out`;
          return { sent, counts, classes, failures, stopped, operations: operations.length, deadline };
        }
        let probe: Probe | undefined;
        if (wantValid) probe = factory.valid(operation);
        else {
          let queue = pending.get(operation);
          if (!queue || queue.length === 0) {
            queue = factory.invalid(operation);
            pending.set(operation, queue);
          }
          probe = queue.shift();
        }
        if (!probe) continue;
        sent++;
        counts[probe.valid ? 'valid' : 'invalid']++;
        const { findings, body, answered: cls } = await send(probe, run);
        const seen = classes[probe.valid ? 'valid' : 'invalid'];
        seen.set(cls, (seen.get(cls) ?? 0) + 1);
        for (const finding of findings) failures.push({ probe, finding });
        if (body !== undefined) harvest(body, names, known);
      }
    }
    // An operation whose probes cannot be made sends nothing; a round that sends nothing twice ends the campaign.
    idle = sent === before ? idle + 1 : 0;
    if (idle >= 2) break;
  }
  return { sent, counts, classes, failures, stopped, operations: operations.length, deadline };
}

/** The headers of one probe: the run's, and for a JSON-RPC call those the suite derives from the call. */
function headersOf(probe: Probe, run: FuzzRun): Readonly<Record<string, string>> {
  const rpc = probe.operation.rpc;
  if (!rpc || !run.rpcHeaders) return run.headers;
  const params = probe.body?.kind === 'json' ? probe.body.value : undefined;
  return { ...run.headers, ...run.rpcHeaders(rpc.method, params) };
}

/** Sends one probe and judges the answer; a request that gets no answer in time is a finding of its own. */
async function send(
  probe: Probe,
  run: FuzzRun,
): Promise<{ findings: Finding[]; body?: unknown; answered: string }> {
  const request = toRequest(probe, baseOf(probe, run), headersOf(probe, run));
  let response: Response;
  try {
    response = await withTimeout(
      Promise.resolve(run.target.fetch(request)),
      run.timeoutMs,
      () => new Error(`no answer within ${run.timeoutMs} ms`),
    );
  } catch (error) {
    return {
      findings: [
        {
          check: probe.valid ? 'valid' : 'invalid',
          category: 'no-answer',
          message: `no answer: ${describeFetchError(error)}`,
        },
      ],
      answered: 'no answer',
    };
  }
  // A 2xx JSON body may name resources later probes can use: read it once, before judging consumes it.
  const copy =
    response.ok && /json/.test(response.headers.get('content-type') ?? '') ? response.clone() : undefined;
  // How it was answered, for the tally: the status class, or for JSON-RPC whether a result or an error came back.
  let answered = `${Math.floor(response.status / 100)}xx`;
  const findings = await judge(probe, response, {
    answered: (kind) => {
      answered = `JSON-RPC ${kind}`;
    },
    binding: run.binding,
    timeoutMs: run.timeoutMs,
    ...(run.refusesInStream ? { refusesInStream: run.refusesInStream } : {}),
    ...(run.rpcErrorStatuses ? { rpcErrorStatuses: run.rpcErrorStatuses } : {}),
  });
  let body: unknown;
  if (copy) body = await copy.json().catch(() => undefined);
  return { findings, body, answered };
}

/**
 * The URL a probe is sent to: the JSON-RPC endpoint for a method; else the HTTP surface's base, except for a
 * well-known URI (RFC 8615), which is served at the agent's root wherever the rest of the surface is mounted.
 */
function baseOf(probe: Probe, run: FuzzRun): string {
  if (probe.operation.rpc) return run.rpc ?? run.target.baseUrl;
  if (probe.operation.path.startsWith('/.well-known/')) return run.target.baseUrl;
  return run.http ?? run.target.baseUrl;
}

/** A JSON-RPC method as an operation the probes can be made for: its params are the body, sent in an envelope. */
function rpcOperation(m: SurfaceRpcMethod, documentErrors: readonly number[]): FuzzOperation {
  const json = { mediaType: 'application/json', kind: 'json' as const, schema: {} };
  const stream = m.stream
    ? [
        {
          ...json,
          mediaType: m.stream === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
          kind: 'stream' as const,
          item: { framing: m.stream },
        },
      ]
    : [];
  return {
    operationId: `rpc ${m.name}`,
    method: 'POST',
    path: '',
    pathParams: [],
    queryParams: [],
    body: { required: true, contents: [{ ...json, typeName: m.paramsType, schema: m.params }] },
    responses: { '200': [json, ...stream] },
    rpc: {
      method: m.name,
      resultType: m.resultType,
      ...(m.stream ? { stream: m.stream } : {}),
      // A method's `errors` in OpenRPC are those it MAY answer, not all: the document's errors count for every method.
      errors: [...new Set([...m.errors, ...documentErrors])],
    },
  };
}

/**
 * Shrinks a failure: smaller probes that keep their side of the line and fail with the same category. Within the
 * same time budget as the requests: past it, the failure is shown as it was found.
 */
async function shrink(failure: Failure, run: FuzzRun, deadline: number): Promise<Failure> {
  let current = failure;
  const required = new Set(current.probe.operation.queryParams.filter((p) => p.required).map((p) => p.name));
  const validate = current.probe.bodyType ? run.binding.validators[current.probe.bodyType] : undefined;
  let budget = SHRINK_BUDGET;
  let progress = true;
  while (progress && budget > 0) {
    progress = false;
    for (const candidate of smaller(current.probe, required)) {
      if (budget <= 0 || Date.now() > deadline) return current;
      if (!keepsItsSide(candidate, validate)) continue;
      budget--;
      const { findings } = await send(candidate, run);
      const same = findings.find(
        (f) => f.check === current.finding.check && f.category === current.finding.category,
      );
      if (same) {
        current = { probe: candidate, finding: same };
        progress = true;
        break;
      }
    }
  }
  return current;
}

/** One failure per operation, rule and category: a hundred 500s of one route say one thing. */
function dedupe(failures: readonly Failure[]): Failure[] {
  const seen = new Set<string>();
  return failures.filter((f) => {
    const key = `${f.probe.operation.operationId} ${f.probe.mutation?.kind ?? 'valid'} ${f.finding.category}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Keeps the string values of keys named like a path parameter (`task_id`), at most 50 per name. */
function harvest(value: unknown, names: ReadonlySet<string>, known: Map<string, string[]>, depth = 0): void {
  if (depth > 6 || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 20)) harvest(item, names, known, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (names.has(k) && (typeof v === 'string' || typeof v === 'number')) {
      const list = known.get(k) ?? [];
      if (!list.includes(String(v)) && list.length < 50) list.push(String(v));
      known.set(k, list);
    } else harvest(v, names, known, depth + 1);
  }
}
