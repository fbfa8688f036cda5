// The scripted agent a client is checked against: an HTTP server on 127.0.0.1 that answers from one scenario's data
// and records every request, each checked as it arrives against the version's surface: which operation or JSON-RPC
// method it is, and whether its body (or params) validates against the declared type.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_LIMITS } from '@agentproto/runtime';
import {
  describeErrors,
  type ProtocolBinding,
  type Surface,
  type SurfaceOperation,
} from '@agentproto/runtime/contract';
import { compilePathTemplate, type PathTemplate } from '@agentproto/runtime/translate';
import { isObject } from '../kit/is-object.js';
import { type ClientScenario, type ClientScenarioFile, fill, type ScriptedAnswer } from './scenarios.js';

/** The most requests recorded in one scenario: past it the agent answers 429 and counts what it dropped. */
export const MAX_RECORDED_REQUESTS = 200;

/** One request the client sent, as the scripted agent saw it. */
export interface RecordedRequest {
  /** 1-based, in the order received. */
  index: number;
  method: string;
  /** The path (and query) relative to the agent's root. */
  path: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** The body as text (at most DEFAULT_LIMITS.jsonBytes), and parsed when it is JSON. */
  text: string;
  body: unknown;
  /** The operation id or JSON-RPC method it is; undefined when it is none of the version's. */
  name?: string;
  /** What is wrong with it, against the version's surface and schemas. */
  problems: string[];
}

/** A scripted agent that listens. */
export interface ScriptedAgent {
  url: string;
  readonly requests: readonly RecordedRequest[];
  /** Requests not recorded because the scenario's cap was reached. */
  readonly dropped: number;
  /** Messages validated against the protocol's types. */
  readonly validated: number;
  /** Stops listening; open connections are cut. */
  close(): Promise<void>;
}

interface Route {
  operation: SurfaceOperation;
  template: PathTemplate;
}

/** Starts the scripted agent of one scenario on 127.0.0.1 (a free port). */
export async function startScriptedAgent(
  binding: ProtocolBinding,
  surface: Surface,
  file: ClientScenarioFile,
  scenario: ClientScenario,
): Promise<ScriptedAgent> {
  const routes = routesOf(surface);
  const rpcPath = surface.rpc ? trimSlash(surface.rpc.endpoint ?? '/') : undefined;
  const methods = new Map((surface.rpc?.methods ?? []).map((m) => [m.name, m]));
  const requests: RecordedRequest[] = [];
  const calls = new Map<string, number>();
  const state = { dropped: 0, validated: 0, url: '' };

  const validate = (type: string, value: unknown, label: string): string[] => {
    const v = binding.validators[type];
    if (!v) return [];
    state.validated++;
    if (v(value)) return [];
    return describeErrors(v.errors).map((i) => `${label}${i.pointer}: ${i.message} (${type})`);
  };

  const answerFor = (name: string): ScriptedAnswer | undefined => {
    const given = scenario.answers?.[name] ?? file.answers[name];
    if (given === undefined) return undefined;
    const n = calls.get(name) ?? 0;
    calls.set(name, n + 1);
    if (!Array.isArray(given)) {
      // sound: not an array, so the one answer form of the union.
      return given as ScriptedAnswer;
    }
    return given[Math.min(n, given.length - 1)];
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (requests.length >= MAX_RECORDED_REQUESTS) {
      state.dropped++;
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `more than ${MAX_RECORDED_REQUESTS} requests in one scenario` }));
      return;
    }
    const text = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://scripted');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    let body: unknown;
    try {
      body = text === undefined || text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = {
      index: requests.length + 1,
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      headers,
      text: text ?? '',
      body,
      problems: [],
    };
    requests.push(record);
    if (text === undefined) {
      record.problems.push(`the body is larger than ${DEFAULT_LIMITS.jsonBytes} bytes`);
      return send(res, { status: 413 }, undefined, state.url);
    }
    const label = `${record.method} ${record.path}`;
    if (record.method === 'POST' && rpcPath !== undefined && trimSlash(url.pathname) === rpcPath) {
      if (!isObject(body) || Array.isArray(body)) {
        record.problems.push(`${label}: the body is not one JSON-RPC message: ${excerpt(text)}`);
        return send(res, { status: 400 }, undefined, state.url);
      }
      const envelope = envelopeProblems(body);
      record.problems.push(...envelope.map((p) => `${label}: ${p}`));
      const name = typeof body.method === 'string' ? body.method : undefined;
      const method = name === undefined ? undefined : methods.get(name);
      if (name !== undefined && !method)
        record.problems.push(`${label}: "${name}" is not a method of ${binding.protocol}@${binding.version}`);
      if (method) {
        record.name = method.name;
        record.problems.push(
          ...validate(method.paramsType, body.params ?? {}, `${label} ${method.name} params`),
        );
      }
      const id = body.id;
      const answer = method ? answerFor(method.name) : undefined;
      if (answer === undefined) {
        if (id === undefined) return send(res, { status: 202 }, undefined, state.url);
        return send(
          res,
          {
            error: {
              code: -32601,
              message: `the scripted agent has no answer for ${name} in ${scenario.id}`,
            },
          },
          id,
          state.url,
        );
      }
      return send(res, answer, id, state.url, answer.raw !== true);
    }
    const route = routes.find(
      (r) => r.operation.method === record.method && r.template.match(url.pathname) !== undefined,
    );
    if (!route) {
      record.problems.push(`${label}: not an operation of ${binding.protocol}@${binding.version}`);
      return send(res, { status: 404 }, undefined, state.url);
    }
    record.name = route.operation.operationId;
    const content = route.operation.body?.contents.find((c) => c.kind === 'json');
    if (content?.typeName) {
      if (body === undefined)
        record.problems.push(
          `${label}: the body is not JSON (${content.typeName} expected): ${excerpt(text)}`,
        );
      else record.problems.push(...validate(content.typeName, body, `${label} body`));
    } else if (route.operation.body?.required && text === '')
      record.problems.push(`${label}: the operation requires a body`);
    const answer = answerFor(route.operation.operationId);
    return send(
      res,
      answer ?? {
        status: 501,
        body: { error: `no answer for ${route.operation.operationId} in ${scenario.id}` },
      },
      undefined,
      state.url,
      true,
      answer?.events === undefined ? undefined : streamOf(route.operation, answer.status ?? 200),
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // sound: a server listening on a TCP port has an AddressInfo address.
  const port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${port}`;
  return {
    url: state.url,
    requests,
    get dropped() {
      return state.dropped;
    },
    get validated() {
      return state.validated;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The surface's operations, the most literal templates first (as the proxy's router orders them). */
function routesOf(surface: Surface): Route[] {
  const routes: Route[] = [];
  for (const operation of surface.operations) {
    try {
      routes.push({ operation, template: compilePathTemplate(operation.path) });
    } catch {
      // A template the matcher cannot read matches no request.
    }
  }
  const literal = (p: string) => p.replace(/\{[^{}]*\}/g, '').length;
  return routes.sort(
    (a, b) =>
      a.template.vars.length - b.template.vars.length ||
      literal(b.operation.path) - literal(a.operation.path),
  );
}

/** What a JSON-RPC 2.0 request or notification breaks of the envelope (JSON-RPC 2.0 §4). */
function envelopeProblems(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (body.jsonrpc !== '2.0')
    out.push(`/jsonrpc: must be "2.0", got ${JSON.stringify(body.jsonrpc) ?? 'nothing'}`);
  if (typeof body.method !== 'string')
    out.push(`/method: must be a string, got ${JSON.stringify(body.method)}`);
  if (body.id !== undefined && typeof body.id !== 'string' && typeof body.id !== 'number')
    out.push(`/id: must be a string or a number, got ${JSON.stringify(body.id)}`);
  if (body.params !== undefined && !isObject(body.params))
    out.push(`/params: must be an object or an array, got ${JSON.stringify(body.params)}`);
  return out;
}

/** A request body as text, or undefined when it is over the runtime's JSON body limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    // sound: an IncomingMessage without an encoding yields Buffers.
    const buffer = chunk as Buffer;
    size += buffer.byteLength;
    if (size > DEFAULT_LIMITS.jsonBytes) {
      req.resume();
      return undefined;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The start of a body, for messages. */
export function excerpt(text: string | undefined): string {
  if (text === undefined || text === '') return '(empty)';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** How a stream answer is written: its media type and its framing. */
interface StreamForm {
  mediaType: string;
  framing: 'sse' | 'ndjson';
}

const SSE: StreamForm = { mediaType: 'text/event-stream', framing: 'sse' };

/** The stream an operation declares for a status (its own, its range's, or the default), else SSE. */
function streamOf(operation: SurfaceOperation, status: number): StreamForm {
  const contents =
    operation.responses[String(status)] ??
    operation.responses[`${String(status)[0]}XX`] ??
    operation.responses.default ??
    [];
  const stream = contents.find((c) => c.kind === 'stream' && c.item !== undefined);
  if (!stream?.item) return SSE;
  return { mediaType: stream.mediaType, framing: stream.item.framing };
}

/**
 * Sends an answer. With an `id` (a JSON-RPC request), a result or error is sent in a response with that id, and
 * stream events wrapped as results unless `wrap` is false.
 */
function send(
  res: ServerResponse,
  given: ScriptedAnswer,
  id: unknown,
  baseUrl: string,
  wrap = true,
  stream: StreamForm = SSE,
): void {
  const answer = fill(given, baseUrl, id);
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.events !== undefined) {
    res.writeHead(answer.status ?? 200, {
      'content-type': stream.mediaType,
      'cache-control': 'no-cache',
      ...headers,
    });
    for (const e of answer.events) {
      const item = id !== undefined && wrap ? { jsonrpc: '2.0', id, result: e } : e;
      // SSE frames each item as a data field ending in a blank line; NDJSON puts one JSON text on each line.
      res.write(
        stream.framing === 'ndjson' ? `${JSON.stringify(item)}\n` : `data: ${JSON.stringify(item)}\n\n`,
      );
    }
    // A reset stream ends without HTTP's last chunk: the client sees the connection break mid-answer.
    if (answer.end === 'reset') res.socket?.destroySoon();
    else res.end();
    return;
  }
  let payload: unknown = answer.body;
  if (id !== undefined && (answer.result !== undefined || answer.error !== undefined))
    payload =
      answer.error !== undefined
        ? { jsonrpc: '2.0', id, error: answer.error }
        : { jsonrpc: '2.0', id, result: answer.result };
  const status = answer.status ?? (payload === undefined && id === undefined ? 202 : 200);
  if (payload === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(payload));
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}
