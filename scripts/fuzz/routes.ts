// Every route of a reference agent under generated requests: valid-looking and near-valid bodies, odd media types,
// charsets and bytes, odd path and query values. The agent must never answer 5xx, never answer an error without a
// JSON body, never log an error, and must still answer a good request afterwards.
import type { OperationModel, ProtocolModel } from '@agentproto/codegen';
import fc from 'fast-check';
import { stringify as stringifyYaml } from 'yaml';
import { cycle, messages } from './mutate.js';
import type { FuzzReport } from './validators.js';

/** An agent to fuzz: how to make it, its protocol model, and what a good request looks like. */
export interface RouteTarget {
  name: string;
  model: ProtocolModel;
  app: () => { fetch: (request: Request) => Response | Promise<Response> };
  /** Values worth trying for path parameters, by name, besides the ids the agent hands out. */
  known?: Record<string, string[]>;
  /** A request the agent must answer with 2xx after the run. */
  probe: { method: string; path: string; headers?: Record<string, string>; body?: string };
  /**
   * Headers a request carries that depend on its body (an MCP 2026-07-28 POST repeats its revision, method and name in
   * headers); the plan's own headers come after and win.
   */
  headersFor?: (body: unknown) => Record<string, string>;
  /** Errors the agent logs on purpose (its "fail" command). */
  expectedLogs?: RegExp;
}

/** One generated request, before it becomes a web Request. */
interface Planned {
  op: OperationModel;
  pathValues: Array<{ kind: 'known' | 'odd' | 'random'; n: number; text: string }>;
  query: Array<[string, string]>;
  contentType: string | undefined;
  body: { kind: 'json' | 'yaml' | 'text' | 'bytes' | 'form' | 'none'; value: unknown; cut: number };
  headers: Array<[string, string]>;
}

const ODD_SEGMENTS: readonly [string, ...string[]] = [
  '%ff',
  '%00',
  '..',
  '%2e%2e',
  '%2F',
  ' ',
  '%20',
  'a%0d%0ab',
  '-1',
  '0',
  '99999999999999999999',
  '日本',
];
const ODD_QUERY = [
  '',
  '0',
  '-1',
  '1',
  '2',
  '10',
  'true',
  'false',
  'True',
  '0x10',
  '1e3',
  ' 5',
  'null',
  '%ff',
  'a'.repeat(300),
];
const ODD_TYPES = [
  'text/plain',
  'application/json; charset=latin1',
  'application/json; charset=utf-8',
  'multipart/form-data',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'application/yaml',
  'application/JSON',
  '',
];

function plan(target: RouteTarget, examples: ReadonlyMap<string, unknown[]>): fc.Arbitrary<Planned> {
  const ops = target.model.operations;
  return fc.constantFrom(...ops).chain((op) => {
    const content = op.requestBody?.contents ?? [];
    const bodyExamples = content.flatMap((c) => (c.typeName ? (examples.get(c.typeName) ?? []) : []));
    return fc.record({
      op: fc.constant(op),
      pathValues: fc.array(
        fc.record({
          kind: fc.constantFrom('known', 'known', 'known', 'odd', 'random'),
          n: fc.nat(),
          text: fc.string({ maxLength: 12 }),
        }),
        { minLength: op.pathParams.length, maxLength: op.pathParams.length },
      ),
      query: fc
        .subarray(op.queryParams.map((p) => p.name))
        .chain((names) =>
          fc
            .tuple(
              ...names.map((name) => fc.tuple(fc.constant(name), fc.constantFrom(...ODD_QUERY))),
              fc.constant(null),
            )
            .map((pairs) => pairs.filter((p): p is [string, string] => p !== null)),
        ),
      contentType: fc.oneof(
        {
          arbitrary: fc.constantFrom(
            ...(content.length > 0 ? content.map((c) => c.mediaType) : ['application/json']),
          ),
          weight: 6,
        },
        { arbitrary: fc.constantFrom(...ODD_TYPES), weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      ),
      body: fc.record({
        kind:
          content.length === 0
            ? fc.constantFrom('none', 'none', 'none', 'json', 'text')
            : fc.constantFrom('json', 'json', 'json', 'json', 'yaml', 'form', 'text', 'bytes', 'none'),
        value: messages(bodyExamples),
        cut: fc.nat(),
      }),
      headers: fc.subarray<[string, string]>([
        ['accept', 'application/yaml'],
        ['accept', 'text/event-stream'],
        ['accept', '*/*;q=0.1, application/json'],
        ['last-event-id', '3'],
        ['last-event-id', 'x'],
        ['authorization', 'Bearer x.y.z'],
      ]),
    });
  });
}

function toRequest(
  p: Planned,
  ids: Map<string, Set<string>>,
  known: Record<string, string[]>,
  headersFor?: RouteTarget['headersFor'],
): Request {
  let path = p.op.path;
  p.op.pathParams.forEach((param, i) => {
    // The plan draws one value per path parameter: `v` is always there.
    const v = p.pathValues[i];
    if (!v) return;
    const pool = [...(known[param.name] ?? []), ...(ids.get(param.name) ?? [])];
    // Undefined when the pool is empty.
    const picked = pool[v.n % pool.length];
    const value =
      v.kind === 'known' && picked !== undefined
        ? encodeURIComponent(picked)
        : v.kind === 'odd' || !isWellFormed(v.text)
          ? cycle(ODD_SEGMENTS, v.n)
          : encodeURIComponent(v.text);
    path = path.replace(`{${param.name}}`, value === '' ? 'x' : value);
  });
  const query = p.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const headers = new Headers({ ...headersFor?.(p.body.value), ...Object.fromEntries(p.headers) });
  let body: BodyInit | undefined;
  const value = p.body.value === undefined ? null : p.body.value;
  switch (p.body.kind) {
    case 'json':
      body = JSON.stringify(value);
      break;
    case 'yaml':
      body = stringifyYaml(value);
      break;
    case 'text': {
      const text = JSON.stringify(value);
      body = text.slice(0, p.body.cut % (text.length + 1));
      break;
    }
    case 'bytes':
      body = new Uint8Array(Array.from({ length: p.body.cut % 64 }, (_, i) => (p.body.cut * (i + 7)) % 256));
      break;
    case 'form': {
      const form = new FormData();
      const fields = value !== null && typeof value === 'object' ? Object.entries(value) : [['file', value]];
      for (const [k, v] of fields.slice(0, 8))
        if (p.body.cut % 2 === 0) form.append(String(k), new File([JSON.stringify(v)], `${k}.bin`));
        else form.append(String(k), typeof v === 'string' ? v : JSON.stringify(v));
      body = form;
      break;
    }
  }
  const method = p.op.method.toUpperCase();
  if (body !== undefined && method !== 'GET' && method !== 'HEAD') {
    const request = new Request(`http://agent.test${path}${query ? `?${query}` : ''}`, {
      method,
      headers,
      body,
    });
    // A form's own Content-Type carries its boundary; another one is set only when the plan asks for it.
    if (p.body.kind !== 'form' || p.contentType !== 'multipart/form-data') {
      if (p.contentType === undefined) request.headers.delete('content-type');
      else request.headers.set('content-type', p.contentType);
    }
    return request;
  }
  return new Request(`http://agent.test${path}${query ? `?${query}` : ''}`, { method, headers });
}

/**
 * Whether a string has no lone surrogate, which `encodeURIComponent` refuses (`String.prototype.isWellFormed`, which
 * the ES2023 library the tree compiles against does not declare). With the `u` flag a pair is one code point, so only
 * a lone surrogate is of the Surrogate category.
 */
function isWellFormed(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}

/** Reads an answer's body, at most `maxBytes` and for at most `ms`; a stream still going then is left. */
async function readSome(response: Response, maxBytes: number, ms: number, idleMs = ms): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = Date.now() + ms;
  try {
    while (size < maxBytes) {
      // After the first chunk, a stream quiet for `idleMs` is taken as one that waits for news (a subscriber to a task
      // that waits for input): nothing more is read from it.
      const left = Math.min(deadline - Date.now(), chunks.length > 0 ? idleMs : ms);
      if (left <= 0) break;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const next = await Promise.race([
        reader.read(),
        new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), left);
        }),
      ]);
      clearTimeout(timer);
      if (next === 'late' || next.done) break;
      chunks.push(next.value);
      size += next.value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks);
}

function collectIds(
  value: unknown,
  names: ReadonlySet<string>,
  ids: Map<string, Set<string>>,
  depth = 0,
): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    if (names.has(k) && (typeof v === 'string' || typeof v === 'number')) {
      const set = ids.get(k) ?? new Set<string>();
      if (set.size < 50) set.add(String(v));
      ids.set(k, set);
    }
    collectIds(v, names, ids, depth + 1);
  }
}

/** Sends `requests` generated requests to a fresh app of the target; returns what went wrong. */
export async function fuzzRoutes(
  target: RouteTarget,
  examples: ReadonlyMap<string, unknown[]>,
  requests: number,
  seed: number,
): Promise<FuzzReport & { statuses: Record<string, number> }> {
  const report: FuzzReport & { statuses: Record<string, number> } = {
    target: `${target.name} routes`,
    inputs: 0,
    failures: [],
    statuses: {},
  };
  const app = target.app();
  const ids = new Map<string, Set<string>>();
  const names = new Set(target.model.operations.flatMap((o) => o.pathParams.map((p) => p.name)));
  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    const text = args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
    if (!target.expectedLogs?.test(text)) logged.push(text);
  };
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).length;
  const fail = (what: string) => {
    if (report.failures.length < 20 && !report.failures.includes(what)) report.failures.push(what);
  };
  try {
    const arbitrary = plan(target, examples);
    for (let batch = 0; report.inputs < requests; batch++) {
      const size = Math.min(500, requests - report.inputs);
      for (const planned of fc.sample(arbitrary, { numRuns: size, seed: seed + batch })) {
        report.inputs++;
        let request: Request;
        try {
          request = toRequest(planned, ids, target.known ?? {}, target.headersFor);
        } catch {
          continue; // a URL the platform itself refuses to build never reaches a server
        }
        const label = `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search} (${request.headers.get('content-type') ?? 'no type'}, ${planned.body.kind})`;
        let response: Response;
        try {
          response = await Promise.race([
            Promise.resolve(app.fetch(request)),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error('no answer within 5 s')), 5000).unref(),
            ),
          ]);
        } catch (error) {
          fail(`${label}: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        const status = String(response.status);
        report.statuses[status] = (report.statuses[status] ?? 0) + 1;
        const type = response.headers.get('content-type') ?? '';
        // An event stream is read until it ends or falls quiet; only its status and media type are judged here, so a
        // stream cut short loses no check (a JSON body is always read whole, up to 200 ms).
        const bytes = await readSome(response, 256 * 1024, 200, type.includes('event-stream') ? 20 : 200);
        if (response.status >= 500)
          fail(`${label}: answered ${status} ${Buffer.from(bytes).toString('utf8').slice(0, 200)}`);
        else if (response.status >= 400 && bytes.byteLength > 0 && !/json|yaml/.test(type))
          fail(`${label}: answered ${status} with ${type || 'no media type'}`);
        else if (/json/.test(type) && bytes.byteLength > 0 && !type.includes('ndjson')) {
          try {
            const parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
            if (response.status < 300) collectIds(parsed, names, ids);
          } catch {
            fail(`${label}: answered ${status} ${type} that is not JSON`);
          }
        }
        for (const line of logged.splice(0)) fail(`${label}: the agent logged "${line.slice(0, 200)}"`);
      }
    }
    const probe = await app.fetch(
      new Request(`http://agent.test${target.probe.path}`, {
        method: target.probe.method,
        ...(target.probe.headers ? { headers: target.probe.headers } : {}),
        ...(target.probe.body !== undefined ? { body: target.probe.body } : {}),
      }),
    );
    await probe.arrayBuffer();
    if (probe.status >= 300)
      fail(`after the run, ${target.probe.method} ${target.probe.path} answered ${probe.status}`);
    if (Object.getOwnPropertyNames(Object.prototype).length !== prototypeKeys)
      fail('Object.prototype gained keys');
  } finally {
    console.error = original;
  }
  return report;
}
