// Server throughput, under load from a second process (autocannon) on 127.0.0.1: the generated stubs against a bare
// Hono route doing the same work without validation, and against node:http. Every server is stopped after its runs.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { createAgentProtocolApp } from '@agentproto/agent-protocol';
import { createReferenceHandlers, MemoryStore } from '@agentproto/agent-protocol/reference-agent';
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
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);

/** Requests per second a server answered, from autocannon in a child process (bounded in time and connections). */
async function load(url: string, body: string): Promise<number> {
  const { stdout } = await run(
    AUTOCANNON,
    [
      '-j',
      '-c',
      '10',
      '-d',
      String(SECONDS),
      '-m',
      'POST',
      '-H',
      'content-type=application/json',
      '-b',
      body,
      url,
    ],
    { timeout: (SECONDS + 30) * 1000, maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

function listenNode(handler: Parameters<typeof createServer>[1]): Promise<LocalServer> {
  return new Promise((resolve) => {
    const server = createServer(handler).listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({ server: server as unknown as LocalServer['server'], url: `http://127.0.0.1:${port}` });
    });
  });
}

async function readJson(req: import('node:http').IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Runs each server's load in alternating rounds; returns requests per second per server per round. */
async function rounds(servers: Record<string, LocalServer>, pathAndBody: { path: string; body: string }) {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, s] of Object.entries(servers))
        out[name]?.push(await load(`${s.url}${pathAndBody.path}`, pathAndBody.body));
    }
  } finally {
    for (const s of Object.values(servers)) (s.server as unknown as Server).close();
  }
  return out;
}

export async function benchHttp(): Promise<Row[]> {
  const rows: Row[] = [];
  // A task creation: the body is read, validated (generated stub only), and answered with the task.
  const stub = await serveLocal(
    createAgentProtocolApp(createReferenceHandlers(new MemoryStore()), { validateResponses: false }).fetch,
    0,
  );
  // The bare route and node:http do the same work with the same handler: read the JSON body, create the task.
  const handlers = createReferenceHandlers(new MemoryStore());
  const create = (body: unknown) =>
    (
      handlers.createAgentTask(
        {
          params: {},
          query: {},
          body: body as never,
          request: undefined as never,
          signal: undefined as never,
        },
        undefined as never,
      ) as { body: unknown }
    ).body;
  const bare = new Hono().post('/ap/v1/agent/tasks', async (c) =>
    c.json(create(await c.req.json()) as object),
  );
  const bareServer = await serveLocal(bare.fetch, 0);
  const node = await listenNode(async (req, res) => {
    const task = create(await readJson(req));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(task));
  });
  const post = await rounds(
    { stub, bare: bareServer, node },
    { path: '/ap/v1/agent/tasks', body: '{"input":"Write the word ok"}' },
  );
  const stubRatio = ratio(post.stub ?? [], post.bare ?? []);
  rows.push({
    measure:
      'generated Hono stub, POST with validation (Agent Protocol createAgentTask), requests/s ÷ bare Hono',
    result: formatRatio(stubRatio),
    target: '≥ 0.95×',
    met: stubRatio.median >= 0.95,
    notes: `node:http ${formatRatio(ratio(post.node ?? [], post.bare ?? []))} of bare Hono; bare Hono ${Math.round(median(post.bare))} req/s; ${ROUNDS} rounds of ${SECONDS} s, 10 connections; response checks off (production)`,
  });

  // A streamed answer of 100 events.
  const EVENTS = 100;
  const generated = createAgent({
    async *run() {
      // 2 response events, a message, 94 deltas, the completed part, the completed message, the completed response.
      for (let i = 0; i < EVENTS - 6; i++) yield { type: 'text', delta: `word${i} ` };
    },
    app: { validateResponses: false },
  });
  const sse = await serveLocal(generated.fetch, 0);
  const event = (i: number) =>
    JSON.stringify({
      sequence_number: i,
      object: 'content',
      status: 'in_progress',
      error: null,
      type: 'text',
      index: 0,
      delta: true,
      msg_id: 'msg_bench',
      text: `word${i} `,
    });
  const hono = new Hono().post('/process', (c) =>
    streamSSE(c, async (stream) => {
      for (let i = 0; i < EVENTS; i++) await stream.writeSSE({ data: event(i) });
    }),
  );
  const honoServer = await serveLocal(hono.fetch, 0);
  const raw = await listenNode(async (req, res) => {
    await readJson(req);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (let i = 0; i < EVENTS; i++) res.write(`data: ${event(i)}\n\n`);
    res.end();
  });
  const body = JSON.stringify({ input: [{ role: 'user', content: [{ type: 'text', text: 'bench' }] }] });
  const streams = await rounds({ generated: sse, raw, hono: honoServer }, { path: '/process', body });
  const sseRatio = ratio(streams.generated ?? [], streams.raw ?? []);
  rows.push({
    measure: `generated SSE endpoint (AgentScope 1.1 /process), ${EVENTS} events per request, requests/s ÷ raw node:http SSE`,
    result: formatRatio(sseRatio),
    target: '≥ 0.8×',
    met: sseRatio.median >= 0.8,
    notes: `Hono streamSSE ${formatRatio(ratio(streams.hono ?? [], streams.raw ?? []))} of raw; raw ${Math.round(median(streams.raw))} req/s`,
  });
  return rows;
}

function median(values: readonly number[] | undefined): number {
  const s = [...(values ?? [])].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
