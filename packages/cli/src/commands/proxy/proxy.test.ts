// `agentproto proxy`, in process: hand-written agents on 127.0.0.1 answer exactly the bytes each test needs (valid,
// invalid, endless), and a client talks to them through the proxy. No test waits on time: a step that must come
// before another is held on a promise the other side resolves.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveBinding } from '@agentproto/registry';
import type { ProtocolBinding } from '@agentproto/runtime/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../index.js';
import { proxyCommand } from './proxy.js';
import { type RunningProxy, startProxy } from './proxy-server.js';
import { type InvalidMessage, type ProxyNote, type ProxyReport, reportWriter } from './reporters.js';
import type { SessionFile } from './session-file.js';
import { type Upstream, UpstreamPool, type UpstreamUser } from './upstream-pool.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

const open: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** An agent on 127.0.0.1 that reads each request whole, then answers with `handler`. */
async function agent(
  handler: Handler,
): Promise<{ url: string; seen: Array<{ raw: string[]; body: Buffer }> }> {
  const seen: Array<{ raw: string[]; body: Buffer }> = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(Buffer.from(c));
    const body = Buffer.concat(chunks);
    seen.push({ raw: req.rawHeaders, body });
    await handler(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  // sound: a server listening on a TCP port has an AddressInfo
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A proxy for `spec` in front of `target`, collecting its reports. */
async function proxy(
  spec: string,
  target: string,
  extra: {
    limits?: Parameters<typeof startProxy>[0]['limits'];
    binding?: ProtocolBinding;
    session?: SessionFile;
  } = {},
) {
  const reports: ProxyReport[] = [];
  const running: RunningProxy = await startProxy({
    binding: extra.binding ?? (await resolveBinding(spec)),
    target,
    onReport: (r) => reports.push(r),
    ...(extra.limits ? { limits: extra.limits } : {}),
    ...(extra.session ? { session: extra.session } : {}),
  });
  open.push(running);
  const invalid = () => reports.filter((r): r is InvalidMessage => r.kind === 'invalid');
  const notes = () => reports.filter((r): r is ProxyNote => r.kind === 'note');
  return { running, reports, invalid, notes };
}

/** One request through node:http, read whole: status, raw headers, body bytes. */
function send(
  url: string,
  options: { method?: string; headers?: string[]; body?: string } = {},
): Promise<{ status: number; raw: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // Headers as a raw list keep their order and case; node:http then adds no Host of its own.
    const headers = ['Host', new URL(url).host, ...(options.headers ?? [])];
    const req = http.request(url, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, raw: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Bytes written to `url`'s port on one connection, and what came back until `done` says it is all there (or the
 * connection closed): the framing tests speak HTTP/1.1 by hand, as no client library would (pipelining, bad heads).
 */
function talk(url: string, bytes: string, done: (text: string) => boolean = () => false) {
  return new Promise<{ text: string; closed: boolean }>((resolve, reject) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (done(text)) {
        socket.destroy();
        resolve({ text, closed: false });
      }
    });
    socket.on('close', () => resolve({ text, closed: true }));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** An agent on 127.0.0.1 that answers every connection's first bytes with `answer`, raw, then closes (or not). */
async function rawAgent(answer: string, close: boolean): Promise<string> {
  const server = net.createServer((socket) => {
    socket.once('data', () => (close ? socket.end(answer) : socket.write(answer)));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // sound: net.Server has no closeAllConnections; the proxy has closed its connections by now (it closes first)
      }),
  });
  // sound: a server listening on a TCP port has an AddressInfo
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The status lines of the answers in `text`, in order. */
const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3}[^\r]*/g) ?? [];

const json = (value: unknown) => JSON.stringify(value);
/** The headers an agent wrote, without those node:http adds to every answer (Date, Connection, Keep-Alive). */
const written = (raw: string[]) =>
  raw
    .filter((_, i) => i % 2 === 0 && !/^(date|connection|keep-alive)$/i.test(raw[i] ?? ''))
    .map((name) => {
      const i = raw.indexOf(name);
      return `${name}: ${raw[i + 1]}`;
    });

const TASK = { task_id: '50da533e-3904-4401-8a07-c49adf88b5eb', artifacts: [] };
const SEND = { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Hello' }] } };
const TASK_EVENT = { task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } } };
const DONE_EVENT = {
  statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } },
};

describe('agentproto proxy', () => {
  it('pass-through > status, headers and bytes come back as the agent wrote them, and the request goes as sent', async () => {
    // Odd spacing, a repeated header, a status text of its own: what a re-serializing proxy would change.
    const bytes = Buffer.from('{ "task_id" :"50da533e-3904-4401-8a07-c49adf88b5eb",\n  "artifacts":[ ] }');
    const target = await agent((_, res) => {
      res.writeHead(200, 'Fine Thanks', ['Content-Type', 'application/json', 'X-Trace', 'a', 'X-Trace', 'b']);
      res.end(bytes);
    });
    const { running, reports } = await proxy('agent-protocol', target.url);
    const request = '{"input" : "hi"}';
    const direct = await send(`${target.url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: ['Content-Type', 'application/json', 'X-Client', '1'],
      body: request,
    });
    const via = await send(`${running.url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: ['Content-Type', 'application/json', 'X-Client', '1'],
      body: request,
    });
    expect(via.status).toBe(200);
    expect(via.body.equals(bytes)).toBe(true);
    expect(written(via.raw)).toEqual(written(direct.raw));
    expect(written(via.raw)).toEqual(
      expect.arrayContaining(['X-Trace: a', 'Content-Type: application/json']),
    );
    // The agent got the same request both times: same body bytes, same headers but Host (which names the agent).
    const [first, second] = target.seen;
    expect(second?.body.equals(Buffer.from(request))).toBe(true);
    const withoutHost = (raw: string[] = []) => written(raw).filter((h) => !h.startsWith('Host'));
    expect(withoutHost(second?.raw)).toEqual(withoutHost(first?.raw));
    expect(reports).toEqual([]);
  });

  it('pass-through > a stream passes event by event: the first reaches the client before the agent writes the second', async () => {
    let clientHasFirst: () => void = () => {};
    const firstArrived = new Promise<void>((resolve) => {
      clientHasFirst = resolve;
    });
    const target = await agent(async (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${json(TASK_EVENT)}\n\n`);
      // The second event waits until the client has the first: a proxy that held the first would never finish.
      await firstArrived;
      res.end(`data: ${json(DONE_EVENT)}\n\n`);
    });
    const { running, reports } = await proxy('a2a@1.0', target.url);
    const answer = await fetch(`${running.url}/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: json(SEND),
    });
    const reader = answer.body?.getReader();
    let text = '';
    const decoder = new TextDecoder();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      text += decoder.decode(next.value, { stream: true });
      if (text.includes('TASK_STATE_WORKING')) clientHasFirst();
    }
    expect(text).toBe(`data: ${json(TASK_EVENT)}\n\ndata: ${json(DONE_EVENT)}\n\n`);
    expect(reports).toEqual([]);
    expect(running.stats().items).toBe(2);
  });

  it('checks > a valid exchange reports nothing', async () => {
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(TASK));
    });
    const { running, reports } = await proxy('agent-protocol', target.url);
    const via = await send(`${running.url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json({ input: 'hi' }),
    });
    expect(via.status).toBe(200);
    expect(reports).toEqual([]);
    expect(running.stats().exchanges).toBe(1);
  });

  it('checks > an invalid request and an invalid answer are each reported once, with pointer, rule and value', async () => {
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json({ ...TASK, artifacts: 'none' }));
    });
    const { running, invalid } = await proxy('agent-protocol', target.url);
    await send(`${running.url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json({ input: 42 }),
    });
    const found = invalid();
    expect(found).toHaveLength(2);
    const [request, response] = found;
    expect(request).toMatchObject({
      exchange: 1,
      method: 'POST',
      path: '/ap/v1/agent/tasks',
      direction: 'request',
      type: 'TaskRequestBody',
      issues: [expect.objectContaining({ pointer: '/input', got: '42' })],
    });
    expect(request?.issues[0]?.rule).toBeTruthy();
    expect(response).toMatchObject({
      direction: 'response',
      type: 'Task',
      issues: [expect.objectContaining({ pointer: '/artifacts', got: '"none"', rule: 'type' })],
    });
  });

  it('checks > an invalid stream item is reported with its position, and the stream still passes whole', async () => {
    const bad = { statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'RUNNING' } } };
    const body = `data: ${json(TASK_EVENT)}\n\ndata: ${json(bad)}\n\ndata: ${json(DONE_EVENT)}\n\n`;
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
    const { running, invalid } = await proxy('a2a@1.0', target.url);
    const via = await send(`${running.url}/message:stream`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json(SEND),
    });
    expect(via.body.toString()).toBe(body);
    const found = invalid();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ direction: 'event', item: 2 });
    expect(found[0]?.issues.some((i) => i.pointer.endsWith('/state') && i.got === '"RUNNING"')).toBe(true);
  });

  it("checks > a stream's order rules run on every item as it passes: a broken rule is reported, the bytes pass unchanged", async () => {
    const valid = readFileSync(
      path.resolve(import.meta.dirname, '../../../../../schemas/agentscope/1.1/streams/upstream-shape.sse'),
      'utf8',
    );
    // The completed part no longer equals its deltas ("Bonjour" ", " "le " "monde"): only the stream rules see it.
    const broken = valid.replace('"text":"Bonjour, le monde"}', '"text":"Bonjour le monde"}');
    expect(broken).not.toBe(valid);
    for (const [body, want] of [
      [valid, []],
      [broken, [{ direction: 'event', item: 8, rules: ['delta-concat'] }]],
    ] as const) {
      const target = await agent((_, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(body);
      });
      const { running, invalid } = await proxy('agentscope@1.1', target.url);
      const via = await send(`${running.url}/process`, {
        method: 'POST',
        headers: ['content-type', 'application/json'],
        body: json({ input: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }),
      });
      expect(via.body.toString()).toBe(body);
      expect(
        invalid().map((r) => ({ direction: r.direction, item: r.item, rules: r.issues.map((i) => i.rule) })),
      ).toEqual(want);
      expect(running.stats().items).toBe(10);
    }
  });

  it('pass-through > requests to the agent reuse one kept-alive connection', async () => {
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(TASK));
    });
    let connections = 0;
    // The agent's server counts the connections it accepts (agent() keeps its server to itself).
    const counted = http.createServer((req, res) => {
      const up = http.request(`${target.url}${req.url}`, { method: req.method, headers: req.headers });
      req.pipe(up);
      up.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
    });
    counted.on('connection', () => connections++);
    await new Promise<void>((resolve) => counted.listen(0, '127.0.0.1', resolve));
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          counted.close(() => resolve());
          counted.closeAllConnections();
        }),
    });
    // sound: a server listening on a TCP port has an AddressInfo
    const port = (counted.address() as AddressInfo).port;
    const { running, reports } = await proxy('agent-protocol', `http://127.0.0.1:${port}`);
    for (let i = 0; i < 3; i++) {
      const via = await send(`${running.url}/ap/v1/agent/tasks`, {
        method: 'POST',
        headers: ['content-type', 'application/json'],
        body: json({ input: `hi ${i}` }),
      });
      expect(via.status).toBe(200);
    }
    expect(connections).toBe(1);
    expect(reports).toEqual([]);
  });

  it('checks > JSON-RPC calls are checked against the OpenRPC methods', async () => {
    const target = await agent((_, res, body) => {
      const call = JSON.parse(body.toString());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        json({ jsonrpc: '2.0', id: call.id, result: { message: { ...SEND.message, role: 'ROLE_AGENT' } } }),
      );
    });
    const { running, invalid } = await proxy('a2a@1.0', target.url);
    const call = (method: string, params: unknown) =>
      send(`${running.url}/jsonrpc`, {
        method: 'POST',
        headers: ['content-type', 'application/json'],
        body: json({ jsonrpc: '2.0', id: 1, method, params }),
      });
    await call('SendMessage', SEND);
    expect(invalid()).toEqual([]);
    await call('SendMessage', { message: { ...SEND.message, role: 'robot' } });
    await call('NoSuchMethod', {});
    const found = invalid();
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({
      direction: 'request',
      type: 'rpc_SendMessage_params',
      issues: [expect.objectContaining({ pointer: '/params/message/role', got: '"robot"' })],
    });
    expect(found[1]?.issues).toEqual([
      expect.objectContaining({ pointer: '/method', rule: 'json-rpc-method', got: '"NoSuchMethod"' }),
    ]);
  });

  it("discovery > a card's interface URLs under the target name the proxy; others stay, with a note", async () => {
    let root = '';
    const card = () => ({
      name: 'Travel agent',
      description: 'Plans trips.',
      supportedInterfaces: [
        { url: `${root}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'https://elsewhere.example/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      version: '2.1.0',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'flights', name: 'Flight search', description: 'Finds flights.', tags: ['travel'] }],
    });
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(card()));
    });
    root = target.url;
    const { running, invalid, notes } = await proxy('a2a@1.0', target.url);
    const via = await send(`${running.url}/.well-known/agent-card.json`, {
      headers: ['accept-encoding', 'gzip'],
    });
    const seen = JSON.parse(via.body.toString());
    expect(seen.supportedInterfaces.map((i: { url: string }) => i.url)).toEqual([
      `${running.url}/a2a/v1`,
      'https://elsewhere.example/a2a',
    ]);
    expect(Number(via.raw[via.raw.findIndex((h) => /^content-length$/i.test(h)) + 1])).toBe(via.body.length);
    expect(invalid()).toEqual([]);
    expect(notes().map((n) => n.message)).toEqual([
      expect.stringContaining('https://elsewhere.example/a2a, which is not under'),
      expect.stringContaining('pointed 1 URL of the agent at the proxy'),
    ]);
    // The rewriting is the protocol's data: a binding without it passes the card on as it came.
    const { discoveryUrls: _, ...without } = await resolveBinding('a2a@1.0');
    const plain = await proxy('a2a@1.0', target.url, { binding: without });
    const unchanged = await send(`${plain.running.url}/.well-known/agent-card.json`);
    expect(JSON.parse(unchanged.body.toString())).toEqual(card());
  });

  it('discovery > a JSON-RPC method answering with a card gets its result rewritten too', async () => {
    let root = '';
    const target = await agent((_, res, body) => {
      const call = JSON.parse(body.toString());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        json({
          jsonrpc: '2.0',
          id: call.id,
          result: {
            name: 'Travel agent',
            description: 'Plans trips.',
            supportedInterfaces: [
              { url: `${root}/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
            ],
            version: '2.1.0',
            capabilities: {},
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [
              { id: 'flights', name: 'Flight search', description: 'Finds flights.', tags: ['travel'] },
            ],
          },
        }),
      );
    });
    root = target.url;
    const { running, invalid } = await proxy('a2a@1.0', target.url);
    const via = await send(`${running.url}/jsonrpc`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json({ jsonrpc: '2.0', id: 7, method: 'GetExtendedAgentCard', params: {} }),
    });
    const answer = JSON.parse(via.body.toString());
    expect(answer.id).toBe(7);
    expect(answer.result.supportedInterfaces[0].url).toBe(`${running.url}/jsonrpc`);
    expect(invalid()).toEqual([]);
  });

  it('session > the traffic is written as a session that `agentproto validate` replays, issues included', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-proxy-'));
    try {
      const target = await agent((req, res) => {
        if (req.url === '/message:stream') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`data: ${json(TASK_EVENT)}\n\ndata: ${json(DONE_EVENT)}\n\n`);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(json({ message: { ...SEND.message, role: 'ROLE_AGENT' } }));
      });
      const file = path.join(dir, 'traffic.session.ndjson');
      let stop = () => {};
      const until = new Promise<void>((resolve) => {
        stop = resolve;
      });
      const out: string[] = [];
      const io = {
        out: (l: string) => out.push(l),
        err: (l: string) => {
          const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(l)?.[1];
          if (!url) return;
          const post = (p: string, body: unknown) =>
            send(`${url}${p}`, {
              method: 'POST',
              headers: ['content-type', 'application/json'],
              body: json(body),
            });
          void post('/message:send', SEND)
            .then(() => post('/message:stream', SEND))
            .then(() => post('/message:send', { message: { ...SEND.message, role: 'robot' } }))
            .finally(stop);
        },
        stdin: async function* () {},
      };
      const code = await proxyCommand(
        target.url,
        { protocol: 'a2a@1.0', session: file, reporter: 'json' },
        io,
        until,
      );
      expect(code).toBe(1);
      expect(out).toHaveLength(1);
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
        agentprotoSession: 1,
        protocol: 'a2a',
        version: '1.0',
      });
      // Two requests and answers, one stream (its answer, two events and its end), one more request and answer.
      expect(lines).toHaveLength(1 + 2 + 2 + 2 + 1 + 2);
      const replay: string[] = [];
      const replayed = await runCli(['validate', file, '--protocol', 'a2a@1.0', '--format', 'session'], {
        out: (l) => replay.push(l),
        err: (l) => replay.push(l),
        stdin: async function* () {},
      });
      expect(replayed).toBe(1);
      expect(replay.join('\n')).toContain('/message/message/role');
      expect(replay.join('\n')).toContain('"robot"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('limits > a hostile endless stream passes whole while what the proxy holds stays within its limits', async () => {
    const CHUNKS = 200;
    const chunk = `data: ${'x'.repeat(16 * 1024)}`;
    const target = await agent(async (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // One event that never ends (no blank line) for CHUNKS × 16 KiB, then a few small ones: counted, not timed.
      res.write(`data: ${json(TASK_EVENT)}\n\n`);
      for (let i = 0; i < CHUNKS; i++) {
        if (!res.write(i === 0 ? chunk : 'x'.repeat(16 * 1024)))
          await new Promise((r) => res.once('drain', r));
      }
      res.write('\n\n');
      for (let i = 0; i < 50; i++) res.write(`data: ${json(TASK_EVENT)}\n\n`);
      res.end();
    });
    const limits = { itemLength: 64 * 1024, bodyBytes: 256 * 1024 };
    const { running, invalid } = await proxy('a2a@1.0', target.url, { limits });
    const via = await send(`${running.url}/message:stream`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json(SEND),
    });
    expect(via.body.length).toBeGreaterThan(CHUNKS * 16 * 1024);
    const stats = running.stats();
    expect(stats.heldBytesMax).toBeLessThanOrEqual(limits.bodyBytes);
    expect(stats.heldBytes).toBe(0);
    // The long event is dropped as too long, not held; every other item is still checked.
    expect(stats.items).toBe(52);
    expect(invalid().some((r) => r.issues.some((i) => /longer than this reader keeps/.test(i.message)))).toBe(
      true,
    );
  });

  it('limits > a body over the limit passes unchanged and unchecked, with a note', async () => {
    const big = json({ ...TASK, artifacts: [], padding: 'y'.repeat(300 * 1024) });
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big);
    });
    const { running, invalid, notes } = await proxy('agent-protocol', target.url, {
      limits: { bodyBytes: 64 * 1024 },
    });
    const via = await send(`${running.url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json({ input: 'hi' }),
    });
    expect(via.body.toString()).toBe(big);
    expect(invalid()).toEqual([]);
    expect(notes()).toEqual([
      expect.objectContaining({ direction: 'response', message: expect.stringContaining('limit bodyBytes') }),
    ]);
    expect(running.stats().heldBytesMax).toBeLessThanOrEqual(64 * 1024);
  });

  it('limits > past `concurrent` bodies and streams at once, more pass unchecked, with a note', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const target = await agent(async (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${json(TASK_EVENT)}\n\n`);
      // The first stream stays open until the second has passed.
      if (req.headers['x-first']) await released;
      res.end(`data: ${json(DONE_EVENT)}\n\n`);
    });
    const { running, notes, invalid } = await proxy('a2a@1.0', target.url, { limits: { concurrent: 1 } });
    const first = await fetch(`${running.url}/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-first': '1' },
      body: json(SEND),
    });
    const reader = first.body?.getReader();
    await reader?.read();
    const second = await send(`${running.url}/message:stream`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json({ message: { ...SEND.message, role: 'robot' } }),
    });
    expect(second.body.toString()).toContain('TASK_STATE_COMPLETED');
    release();
    while (!(await reader?.read())?.done) {}
    // The second exchange's invalid request went unchecked: only the notes say it passed.
    expect(invalid()).toEqual([]);
    expect(notes().map((n) => [n.exchange, n.direction])).toEqual([
      [2, 'request'],
      [2, 'response'],
    ]);
    expect(notes()[0]?.message).toContain('(limit concurrent)');
  });

  it('reporters > a text line names the exchange, method, path, direction, type, pointer, rule and value', () => {
    const lines: string[] = [];
    const write = reportWriter('text', {
      out: (l) => lines.push(l),
      err: () => {},
      stdin: async function* () {},
    });
    write({
      kind: 'invalid',
      ...{
        exchange: 3,
        method: 'POST',
        path: '/ap/v1/agent/tasks',
        direction: 'request',
        type: 'TaskRequestBody',
      },
      issues: [{ pointer: '/input', message: 'must be string', rule: 'type', got: '42' }],
    });
    write({
      kind: 'note',
      exchange: 4,
      method: 'GET',
      path: '/x',
      direction: 'event',
      item: 7,
      message: 'not checked',
    });
    expect(lines).toEqual([
      'invalid #3 POST /ap/v1/agent/tasks request (TaskRequestBody): /input: must be string [type] (got 42)',
      'note #4 GET /x event 7: not checked',
    ]);
  });

  it("target down > an agent that breaks a stream midway breaks the client's too, with a note", async () => {
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${json(TASK_EVENT)}\n\n`, () => res.destroy());
    });
    const { running, notes } = await proxy('a2a@1.0', target.url);
    const outcome = await send(`${running.url}/message:stream`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json(SEND),
    }).then(
      () => 'ended',
      () => 'broken',
    );
    expect(outcome).toBe('broken');
    expect(notes().map((n) => n.message)).toContain('the agent broke the connection before the answer ended');
  });

  it('client gone > a client that leaves before the answer cuts the request to the agent, and nothing is blamed on the agent', async () => {
    let agentHasRequest: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      agentHasRequest = resolve;
    });
    let agentSawClose: () => void = () => {};
    const cut = new Promise<void>((resolve) => {
      agentSawClose = resolve;
    });
    // The first request is never answered: the agent only sees it arrive, then the proxy cut it.
    const target = await agent((req, res) => {
      if (req.headers['x-hang']) {
        res.on('close', agentSawClose);
        return agentHasRequest();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(TASK));
    });
    const { running, notes, invalid } = await proxy('agent-protocol', target.url);
    const client = http.request(`${running.url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hang': '1' },
    });
    client.on('error', () => {});
    client.end(json({ input: 'hi' }));
    await arrived;
    client.destroy();
    await cut;
    // A whole exchange after the cut: by its end the proxy has long handled the closed connection.
    const next = await send(`${running.url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: ['content-type', 'application/json'],
      body: json({ input: 'hi' }),
    });
    expect(next.status).toBe(200);
    expect(notes()).toEqual([]);
    expect(invalid()).toEqual([]);
  });

  it('target down > the client gets a 502 problem saying the agent cannot be reached', async () => {
    const gone = await agent(() => {});
    const url = gone.url;
    await open.pop()?.close();
    const { running, notes } = await proxy('agent-protocol', url);
    const via = await send(`${running.url}/ap/v1/agent/tasks`);
    expect(via.status).toBe(502);
    const problem = JSON.parse(via.body.toString());
    expect(problem).toMatchObject({ status: 502, title: 'Bad Gateway' });
    expect(problem.detail).toContain(`cannot reach the agent at ${url}: connection refused`);
    expect(notes()).toEqual([
      expect.objectContaining({ message: expect.stringContaining('connection refused') }),
    ]);
  });
});

describe('agentproto proxy > HTTP/1.1 framing', () => {
  const echoId = async () =>
    agent((req, res) => {
      const body = json({ ...TASK, task_id: req.url?.split('/').pop() });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    });

  it('pipelining > requests written before the first answer are answered in order, one by one', async () => {
    const target = await echoId();
    // In front of the agent, a pass-through that counts the connections the proxy opens: one, used in turn.
    let connections = 0;
    const counter = net.createServer((socket) => {
      connections++;
      const to = net.connect(Number(new URL(target.url).port), '127.0.0.1');
      socket.pipe(to).pipe(socket);
      socket.on('error', () => to.destroy());
      to.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => counter.close(() => resolve())) });
    // sound: a server listening on a TCP port has an AddressInfo
    const port = (counter.address() as AddressInfo).port;
    const { running, reports } = await proxy('agent-protocol', `http://127.0.0.1:${port}`);
    const get = (id: string) => `GET /ap/v1/agent/tasks/${id} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const { text } = await talk(running.url, get('first') + get('second') + get('third'), (t) =>
      t.includes('"third"'),
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    expect([text.indexOf('"first"'), text.indexOf('"second"'), text.indexOf('"third"')]).toEqual(
      [text.indexOf('"first"'), text.indexOf('"second"'), text.indexOf('"third"')].sort((a, b) => a - b),
    );
    expect(text.indexOf('"first"')).toBeGreaterThan(0);
    expect(target.seen).toHaveLength(3);
    expect(connections).toBe(1);
    expect(reports.filter((r) => r.kind === 'invalid')).toEqual([]);
    expect(running.stats().exchanges).toBe(3);
  });

  it('bodiless > an answer to HEAD has no body, and the next request on the connection is answered', async () => {
    const target = await echoId();
    const { running } = await proxy('agent-protocol', target.url);
    const { text } = await talk(
      running.url,
      'HEAD /ap/v1/agent/tasks/h HTTP/1.1\r\nHost: x\r\n\r\nGET /ap/v1/agent/tasks/g HTTP/1.1\r\nHost: x\r\n\r\n',
      (t) => t.includes('"g"'),
    );
    expect(statusLines(text)).toHaveLength(2);
    expect(text).not.toContain('"h"');
  });

  it('interim > a 100 Continue passes on before the final answer', async () => {
    // The final answer is invalid: reported only when the proxy reads it as the answer, not as the 100's body.
    const target = await agent((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json({ ...TASK, artifacts: 'none' }));
    });
    const { running, invalid } = await proxy('agent-protocol', target.url);
    const body = json({ input: 'hi' });
    const { text } = await talk(
      running.url,
      `POST /ap/v1/agent/tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      (t) => t.includes('"none"'),
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
    expect(invalid()).toEqual([expect.objectContaining({ direction: 'response' })]);
  });

  it('chunked > a chunked request body reaches the agent whole and is checked', async () => {
    const target = await echoId();
    const { running, invalid } = await proxy('agent-protocol', target.url);
    const { text } = await talk(
      running.url,
      'POST /ap/v1/agent/tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"inp\r\n8\r\nut": 42}\r\n0\r\n\r\n',
      (t) => t.includes('"tasks"'),
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    expect(target.seen[0]?.body.toString()).toBe('{"input": 42}');
    expect(invalid()).toEqual([
      expect.objectContaining({
        direction: 'request',
        issues: [expect.objectContaining({ pointer: '/input' })],
      }),
    ]);
  });

  it('close-delimited > an answer that ends when the agent closes passes whole, and ends the client connection', async () => {
    const body = json(TASK);
    const url = await rawAgent(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${body}`, true);
    const { running, reports } = await proxy('agent-protocol', url);
    const { text, closed } = await talk(running.url, 'GET /ap/v1/agent/tasks/t HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(closed).toBe(true);
    expect(text.endsWith(`\r\n\r\n${body}`)).toBe(true);
    expect(reports).toEqual([]);
  });

  it('refused > what is not an HTTP/1.1 exchange gets a clear answer and never reaches the agent', async () => {
    const target = await echoId();
    const { running } = await proxy('agent-protocol', target.url, { limits: { headBytes: 1024 } });
    for (const [given, want] of [
      [
        'GET /ap/v1/agent/tasks HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
        501,
      ],
      ['CONNECT agent:443 HTTP/1.1\r\nHost: agent:443\r\n\r\n', 501],
      ['NOT HTTP\r\n\r\n', 400],
      ['GET / HTTP/1.1\r\nHost : x\r\n\r\n', 400],
      ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(2048)}\r\n\r\n`, 431],
    ] as const) {
      const { text, closed } = await talk(running.url, given);
      expect(closed).toBe(true);
      expect(statusLines(text)[0]).toMatch(new RegExp(`^HTTP/1.1 ${want} `));
      const problem = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
      expect(problem).toMatchObject({ status: want, detail: expect.stringContaining('agentproto proxy') });
    }
    expect(target.seen).toEqual([]);
  });

  it('broken answers > bytes after an answer never reach the client, and that connection is not used again', async () => {
    const url = await rawAgent(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}GARBAGE',
      false,
    );
    const { running } = await proxy('agent-protocol', url);
    for (let i = 0; i < 2; i++) {
      // The raw agent answers once per connection: a second request on the first connection would get nothing.
      const { text } = await talk(running.url, 'GET /ap/v1/agent/tasks/t HTTP/1.1\r\nHost: x\r\n\r\n', (t) =>
        t.endsWith('{}'),
      );
      expect(text.endsWith('\r\n\r\n{}')).toBe(true);
      expect(text).not.toContain('GARBAGE');
    }
  });

  it('broken answers > bytes that are not HTTP/1.1 get the client a 502', async () => {
    const url = await rawAgent('SMTP ready\r\n\r\n', false);
    const { running, notes } = await proxy('agent-protocol', url);
    const via = await send(`${running.url}/ap/v1/agent/tasks`);
    expect(via.status).toBe(502);
    expect(notes().map((n) => n.message)).toEqual([expect.stringContaining('not HTTP/1.1')]);
  });
});

describe('agentproto proxy > kept-alive connections the agent closes', () => {
  /**
   * A hand-made agent that announces keep-alive (`Keep-Alive: timeout=5`) and, on each connection, answers the first
   * request only; then it `end`s the connection right after that answer, or `destroy`s it when a second request comes
   * (an agent whose idle timer fired just as the request arrived). It records each request's bytes, and the
   * connections: `closed` resolves once the agent's side of a connection has closed.
   */
  async function closingAgent(mode: 'end' | 'destroy') {
    const requests: string[] = [];
    const closed: Array<Promise<void>> = [];
    const body = json(TASK);
    const answer = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${body}`;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
      socket.on('error', () => {});
      let text = '';
      let answered = false;
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        for (;;) {
          const end = text.indexOf('\r\n\r\n');
          if (end === -1) return;
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
          if (text.length < end + 4 + length) return;
          requests.push(text.slice(0, end + 4 + length));
          text = text.slice(end + 4 + length);
          if (answered) return void socket.destroy();
          answered = true;
          if (mode === 'end') socket.end(answer);
          else socket.write(answer);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        }),
    });
    // sound: a server listening on a TCP port has an AddressInfo
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, requests, closed };
  }

  // With its length: the hand-made agent reads no chunked bodies.
  const post = (url: string, input: string) =>
    send(`${url}/ap/v1/agent/tasks`, {
      method: 'POST',
      headers: ['content-type', 'application/json', 'content-length', String(json({ input }).length)],
      body: json({ input }),
    });

  it('retry > a GET that meets a kept connection the agent has just closed goes again on a fresh one', async () => {
    const target = await closingAgent('destroy');
    const { running, reports } = await proxy('agent-protocol', target.url);
    const first = await send(`${running.url}/ap/v1/agent/tasks/t1`);
    expect(first.status).toBe(200);
    const second = await send(`${running.url}/ap/v1/agent/tasks/t2`);
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body.toString())).toEqual(TASK);
    // The second request reached the agent twice, the same bytes each time, on two connections.
    expect(target.requests).toHaveLength(3);
    expect(target.requests[2]).toBe(target.requests[1]);
    expect(target.requests[1]).toContain('GET /ap/v1/agent/tasks/t2 HTTP/1.1');
    expect(target.closed).toHaveLength(2);
    expect(reports).toEqual([]);
  });

  it('retry > a POST whose bytes may have reached the agent is never sent twice: the client gets a 502', async () => {
    const target = await closingAgent('destroy');
    const { running, notes } = await proxy('agent-protocol', target.url);
    expect((await post(running.url, 'one')).status).toBe(200);
    const second = await post(running.url, 'two');
    expect(second.status).toBe(502);
    expect(target.requests.filter((r) => r.includes('"two"'))).toHaveLength(1);
    expect(target.closed).toHaveLength(1);
    expect(notes().map((n) => n.message)).toEqual([expect.stringContaining('cannot reach the agent')]);
  });

  it('retry > a connection the agent ended after its answer is not used again: the next POST goes on a fresh one', async () => {
    const target = await closingAgent('end');
    const { running, reports } = await proxy('agent-protocol', target.url);
    expect((await post(running.url, 'one')).status).toBe(200);
    // The agent's side closes once the proxy has answered its end with its own: the proxy has seen the end by then.
    await target.closed[0];
    const second = await post(running.url, 'two');
    expect(second.status).toBe(200);
    expect(target.requests.filter((r) => r.includes('"two"'))).toHaveLength(1);
    expect(target.closed).toHaveLength(2);
    expect(reports).toEqual([]);
  });

  it("idle > the pool drops an idle connection a margin before the agent's announced timeout", async () => {
    const server = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          pool.destroy();
        }),
    });
    // sound: a server listening on a TCP port has an AddressInfo
    const port = (server.address() as AddressInfo).port;
    let now = 1_000_000;
    const pool = new UpstreamPool(
      { https: false, host: '127.0.0.1', port, servername: '' },
      16384,
      60_000,
      () => now,
    );
    const user: UpstreamUser = { head() {}, data() {}, end() {}, answerBytes() {}, lost() {} };
    const first: Upstream = pool.acquire(user);
    // As an answer saying `Keep-Alive: timeout=5` sets it.
    first.agentIdleMs = 5_000;
    pool.release(first);
    now += 3_900;
    expect(pool.acquire(user)).toBe(first);
    pool.release(first);
    now += 4_000;
    const second = pool.acquire(user);
    expect(second).not.toBe(first);
    expect(first.socket.destroyed).toBe(true);
    // An agent that keeps connections a second: dropped after half of it.
    second.agentIdleMs = 1_000;
    pool.release(second);
    now += 499;
    expect(pool.acquire(user)).toBe(second);
    pool.release(second);
    now += 500;
    expect(pool.acquire(user)).not.toBe(second);
  });

  it('idle > a connection the sweeper closes is out of the pool at once, before its socket says `close`', async () => {
    const server = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // sound: a server listening on a TCP port has an AddressInfo
    const port = (server.address() as AddressInfo).port;
    let now = 1_000_000;
    // An idle time of 400 ms: the sweeper comes by every 50 ms.
    const pool = new UpstreamPool(
      { https: false, host: '127.0.0.1', port, servername: '' },
      16384,
      400,
      () => now,
    );
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          pool.destroy();
          server.close(() => resolve());
        }),
    });
    const user: UpstreamUser = { head() {}, data() {}, end() {}, answerBytes() {}, lost() {} };
    const first = pool.acquire(user);
    await new Promise((resolve) => first.socket.once('connect', resolve));
    pool.release(first);
    // The request that comes just as the sweeper closes the connection: it must get another one.
    const taken = new Promise<Upstream>((resolve) => {
      const destroy = first.socket.destroy.bind(first.socket);
      first.socket.destroy = (error?: Error) => {
        destroy(error);
        resolve(pool.acquire(user));
        return first.socket;
      };
    });
    now += 1_000;
    const next = await taken;
    expect(next).not.toBe(first);
    expect(next.socket.destroyed).toBe(false);
  });
});

describe('agentproto proxy > backpressure', () => {
  it('client gone > an answer the client could not take leaves its agent connection reading, for the next exchange', async () => {
    // The first request's answer (an invalid one: its report marks its end) waits until the client has reset its
    // connection; the next ones are answered at once, valid.
    let asked!: () => void;
    const firstAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let first = true;
    const target = await agent(async (_req, res) => {
      let body = json(TASK);
      if (first) {
        first = false;
        asked();
        await answered;
        body = json({ ...TASK, artifacts: 'none' });
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    let checked!: () => void;
    const firstChecked = new Promise<void>((resolve) => {
      checked = resolve;
    });
    const running = await startProxy({
      binding: await resolveBinding('agent-protocol'),
      target: target.url,
      onReport: (r) => {
        if (r.kind === 'invalid') checked();
      },
    });
    open.push(running);
    // A request, then more bytes than the proxy reads ahead while it waits (it stops reading the connection); then
    // the client resets the connection: the proxy learns of it only as it writes the answer, which fails.
    const client = net.connect(Number(new URL(running.url).port), '127.0.0.1');
    client.on('error', () => {});
    await new Promise<void>((resolve) => client.once('connect', resolve));
    client.write(`GET /ap/v1/agent/tasks/t1 HTTP/1.1\r\nHost: x\r\n\r\n${'x'.repeat(256 * 1024)}`);
    await firstAsked;
    const reset = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.resetAndDestroy();
    await reset;
    answer();
    // The answer has been read whole (it is checked as it ends): its agent connection is back in the pool, and the
    // next request goes on it.
    await firstChecked;
    const next = await send(`${running.url}/ap/v1/agent/tasks/t2`);
    expect(next.status).toBe(200);
    expect(target.seen).toHaveLength(2);
  });
});
