// Server throughput, under load from a second process (autocannon) on 127.0.0.1: the generated stubs against a bare
// Hono route doing the same work without validation, and against node:http. Every server is stopped after its runs.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { createAgentProtocolApp } from '@agentproto/agent-protocol';
import { createReferenceHandlers, TaskStore } from '@agentproto/agent-protocol/reference-agent';
import { createAgent } from '@agentproto/agentscope/1.1';
import { type LocalServer, serveLocal } from '@agentproto/runtime';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { formatRatio, ratio } from './timing.js';
import type { Row } from './validators.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const AUTOCANNON = path.join(ROOT, 'node_modules/.bin/autocannon');

/** How long each load run lasts, in seconds, and how many rounds each server gets. */
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 9);
/** The load each server gets before the rounds, not counted. */
const WARM_UP_SECONDS = 2;

/** What one load run measured: requests per second, and the time of a request from its start to its answer's end. */
export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  latencyMean: number;
  /** Milliseconds. */
  latencyP99: number;
}

/** Requests per second a server answered, from autocannon in a child process (bounded in time and connections). */
export async function load(
  url: string,
  body: string,
  seconds = SECONDS,
  headers: Record<string, string> = {},
): Promise<number> {
  return (await measureLoad(url, body, seconds, headers)).requestsPerSecond;
}

/** One load run of autocannon in a child process, with `connections` clients each sending its next request once answered. */
export async function measureLoad(
  url: string,
  body: string,
  seconds = SECONDS,
  headers: Record<string, string> = {},
  connections = 10,
): Promise<LoadResult> {
  const { stdout } = await run(
    AUTOCANNON,
    [
      ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
      '-j',
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-m',
      'POST',
      '-H',
      'content-type=application/json',
      '-b',
      body,
      url,
    ],
    { timeout: (seconds + 30) * 1000, maxBuffer: 16 * 1024 * 1024 },
  );
  // sound: with `-j`, autocannon prints its result object as JSON, of which these are documented members.
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { average: number; p99: number };
    non2xx: number;
    errors: number;
  };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    requestsPerSecond: result.requests.average,
    latencyMean: result.latency.average,
    latencyP99: result.latency.p99,
  };
}

export function listenNode(handler: Parameters<typeof createServer>[1]): Promise<LocalServer> {
  return new Promise((resolve) => {
    const server = createServer(handler).listen(0, '127.0.0.1', () => {
      // A server listening on a TCP port has an address with its port (a string only for a pipe or a socket file).
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

export async function readJson(req: import('node:http').IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  // A request with no encoding set reads as Buffers.
  for await (const c of req) if (Buffer.isBuffer(c)) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Where each server's load goes, and what it sends. */
export interface LoadTarget {
  path: string;
  /** The request body, or each server's, by its name. */
  body: string | Record<string, string>;
  /** Each server's request headers, by its name. */
  headers?: Record<string, Record<string, string>>;
  /** Clients at once (default 10), each sending its next request once its last one is answered. */
  connections?: number;
}

/**
 * Runs each server's load in rounds, after a warm-up load each (not counted: the first second of a fresh server is
 * its JIT compiling); each round takes the servers in a rotated order, so none always runs first or right after the
 * same neighbour. Returns requests per second per server per round.
 */
export async function rounds(
  servers: Record<string, LocalServer>,
  target: LoadTarget,
  /** Awaited after each round of a server, before the next round starts (e.g. until its background work is done). */
  after?: (name: string) => Promise<void>,
): Promise<Record<string, number[]>> {
  const measured = await measureRounds(servers, target, after);
  return Object.fromEntries(
    Object.entries(measured).map(([name, runs]) => [name, runs.map((r) => r.requestsPerSecond)]),
  );
}

/** `rounds`, answering each run's whole result (its latency too). */
export async function measureRounds(
  servers: Record<string, LocalServer>,
  target: LoadTarget,
  after?: (name: string) => Promise<void>,
): Promise<Record<string, LoadResult[]>> {
  const names = Object.keys(servers);
  const out: Record<string, LoadResult[]> = Object.fromEntries(names.map((k) => [k, []]));
  const url = (name: string) => `${servers[name]?.url}${target.path}`;
  const headers = (name: string) => target.headers?.[name] ?? {};
  const given = target.body;
  const body = (name: string) => (typeof given === 'string' ? given : (given[name] ?? ''));
  const connections = target.connections ?? 10;
  try {
    for (const name of names) {
      await measureLoad(url(name), body(name), WARM_UP_SECONDS, headers(name), connections);
      await after?.(name);
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < names.length; k++) {
        // An index modulo the length: always a name.
        const name = names[(k + r) % names.length];
        if (name === undefined) continue;
        out[name]?.push(await measureLoad(url(name), body(name), SECONDS, headers(name), connections));
        await after?.(name);
      }
    }
  } finally {
    for (const s of Object.values(servers)) s.server.close();
  }
  return out;
}

/** `BENCH_HTTP_ONLY=stub` or `=sse` runs one of the two measures. */
const ONLY = process.env.BENCH_HTTP_ONLY;

export async function benchHttp(): Promise<Row[]> {
  const rows: Row[] = [];
  if (ONLY !== 'sse') rows.push(await benchStub());
  if (ONLY !== 'stub') rows.push(await benchSse());
  return rows;
}

async function benchStub(): Promise<Row> {
  // A task creation: the body is read, validated (generated stub only), and answered with the task.
  const stub = await serveLocal(
    createAgentProtocolApp(createReferenceHandlers(new TaskStore()), { validateResponses: false }).fetch,
    0,
  );
  // The bare route and node:http do the same work with the same handler: read the JSON body, create the task.
  const handlers = createReferenceHandlers(new TaskStore());
  // The handler's own answer, awaited: the baselines read, create and serialize the task as the stub does.
  const create = async (body: unknown): Promise<object> => {
    const answer = await handlers.createAgentTask(
      {
        params: {},
        query: {},
        // sound: the body is what the client sent (`{"input": …}`, a CreateTaskRequest); the handler reads no request,
        // signal or Hono context, which a bare route does not have.
        body: body as never,
        request: undefined as never,
        signal: undefined as never, // sound: see above
      },
      undefined as never, // sound: see above: the handler reads no Hono context
    );
    return answer.body;
  };
  const bare = new Hono().post('/ap/v1/agent/tasks', async (c) => c.json(await create(await c.req.json())));
  const bareServer = await serveLocal(bare.fetch, 0);
  const node = await listenNode(async (req, res) => {
    const task = await create(await readJson(req));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(task));
  });
  const post = await rounds(
    { stub, bare: bareServer, node },
    { path: '/ap/v1/agent/tasks', body: '{"input":"Write the word ok"}' },
  );
  const stubRatio = ratio(post.stub ?? [], post.bare ?? []);
  return {
    measure:
      'generated Hono stub, POST with validation (Agent Protocol createAgentTask), requests/s ÷ bare Hono',
    result: formatRatio(stubRatio),
    target: '≥ 0.95×',
    met: stubRatio.median >= 0.95,
    notes: `node:http ${formatRatio(ratio(post.node ?? [], post.bare ?? []))} of bare Hono; bare Hono ${Math.round(median(post.bare))} req/s; ${ROUNDS} rounds of ${SECONDS} s, 10 connections; response checks off (production)`,
  };
}

/** A streamed answer of 100 events. */
async function benchSse(): Promise<Row> {
  const EVENTS = 100;
  const generated = createAgent({
    async *run() {
      // 2 response events, a message, 94 deltas, the completed part, the completed message, the completed response.
      for (let i = 0; i < EVENTS - 6; i++) yield { type: 'text', delta: `word${i} ` };
    },
    app: { validateResponses: false },
  });
  const sse = await serveLocal(generated.fetch, 0);
  // The same agent on the web-stream path (what runtimes other than Node take), to show what writing to the Node
  // response directly gains.
  const viaWebStream = createAgent({
    async *run() {
      for (let i = 0; i < EVENTS - 6; i++) yield { type: 'text', delta: `word${i} ` };
    },
    app: { validateResponses: false, nodeStreams: false },
  });
  const webServer = await serveLocal(viaWebStream.fetch, 0);
  // The baselines write the same 100 events, built inline as a hand-written server would: the same bytes on the
  // wire (checked below), so the ratio is what the generated stack costs, not a difference in what is sent.
  const hono = new Hono().post('/process', (c) =>
    streamSSE(c, async (stream) => {
      for (const e of agentscopeEvents(EVENTS)) await stream.writeSSE({ data: JSON.stringify(e) });
    }),
  );
  const honoServer = await serveLocal(hono.fetch, 0);
  const raw = await listenNode(async (req, res) => {
    await readJson(req);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const e of agentscopeEvents(EVENTS)) res.write(`data: ${JSON.stringify(e)}\n\n`);
    res.end();
  });
  const body = JSON.stringify({ input: [{ role: 'user', content: [{ type: 'text', text: 'bench' }] }] });
  const sizes = await Promise.all(
    [sse, webServer, raw, honoServer].map(async (s) => {
      const answer = await fetch(`${s.url}/process`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      return (await answer.text()).length;
    }),
  );
  if (new Set(sizes).size !== 1)
    throw new Error(`the SSE servers send different streams: ${sizes.join(', ')} bytes`);
  const streams = await rounds(
    { generated: sse, web: webServer, raw, hono: honoServer },
    { path: '/process', body },
  );
  const sseRatio = ratio(streams.generated ?? [], streams.raw ?? []);
  return {
    measure: `generated SSE endpoint (AgentScope 1.1 /process), ${EVENTS} events per request, requests/s ÷ raw node:http SSE`,
    result: formatRatio(sseRatio),
    target: '≥ 0.8×',
    met: sseRatio.median >= 0.8,
    notes: `web-stream path (other runtimes) ${formatRatio(ratio(streams.web ?? [], streams.raw ?? []))}; Hono streamSSE ${formatRatio(ratio(streams.hono ?? [], streams.raw ?? []))} of raw; raw ${Math.round(median(streams.raw))} req/s; each server writes the same ${sizes[0]} bytes per answer (the 100 events of the protocol's grammar; raw and Hono build them inline)`,
  };
}

/**
 * The events of one AgentScope 1.1 answer of `count` events, built inline: the response created and in progress, a
 * message, its text deltas, the completed part, message and response. What the generated endpoint sends.
 */
function agentscopeEvents(count: number): Array<Record<string, unknown>> {
  const now = Math.floor(Date.now() / 1000);
  let seq = 0;
  const response = {
    object: 'response',
    status: 'created',
    error: null,
    id: `response_${randomUUID()}`,
    created_at: now,
    completed_at: null,
    output: [],
    usage: null,
    session_id: null,
  };
  const message = {
    object: 'message',
    status: 'in_progress',
    error: null,
    id: `msg_${randomUUID()}`,
    type: 'message',
    role: 'assistant',
    content: null,
    code: null,
    message: null,
    usage: null,
    metadata: null,
  };
  const out: Array<Record<string, unknown>> = [
    { sequence_number: seq++, ...response },
    { sequence_number: seq++, ...response, status: 'in_progress' },
    { sequence_number: seq++, ...message },
  ];
  const words: string[] = [];
  for (let i = 0; i < count - 6; i++) {
    words.push(`word${i} `);
    out.push({
      sequence_number: seq++,
      object: 'content',
      status: 'in_progress',
      error: null,
      index: 0,
      delta: true,
      msg_id: message.id,
      type: 'text',
      text: `word${i} `,
    });
  }
  const part = {
    sequence_number: seq++,
    object: 'content',
    status: 'completed',
    error: null,
    index: 0,
    delta: false,
    msg_id: message.id,
    type: 'text',
    text: words.join(''),
  };
  const done = { sequence_number: seq++, ...message, status: 'completed', content: [part] };
  out.push(part, done, {
    sequence_number: seq++,
    ...response,
    status: 'completed',
    completed_at: now,
    output: [done],
  });
  return out;
}

export function median(values: readonly number[] | undefined): number {
  const s = [...(values ?? [])].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
