// A2A rows: the generated validators on a streamed event and on a request, as a ratio to JSON.parse (runtime ajv over
// the same schema files beside them), and the streaming endpoints of both bindings as a ratio to raw node:http
// writing the same bytes.

import { spawn } from 'node:child_process';
import {
  type A2aOperations,
  createA2aApp,
  createA2aRpcApp,
  type StreamResponse,
  serveA2a,
  validators,
} from '@agentproto/a2a';
import { createReferenceAgent } from '@agentproto/a2a/reference-agent';
import { createAjv, forAjv, loadProtocols, schemaId } from '@agentproto/codegen';
import { describeErrors, serveLocal, type Validator } from '@agentproto/runtime';
import { TRANSLATOR } from '../../packages/a2a/src/generated/translate-0.3-1.0.js';
import { type LoadResult, listenNode, measureRounds, median, readJson, rounds } from './http.js';
import { compare, formatRatio, ratio } from './timing.js';
import type { Row } from './validators.js';

const EVENTS = 100;

/**
 * The events of one streamed answer: the task, then artifact chunks, then the completed status. Built as
 * legacyEvents() builds 0.3's, with no object literal that starts with a spread: on Node 20 such a literal with a field
 * after it makes an object in a slow shape, which took building and writing 100 of these events about 4× as long, a
 * cost of the producer (the same on both sides of the 1.0 rows) that the 0.3 row's baseline did not pay.
 */
function events(): StreamResponse[] {
  const taskId = 'task-bench';
  const contextId = 'ctx-bench';
  return [
    { task: { id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED' } } },
    ...Array.from({ length: EVENTS - 2 }, (_, i) => ({
      artifactUpdate: {
        taskId,
        contextId,
        artifact: { artifactId: 'a', parts: [{ text: `word${i} ` }] },
        ...(i > 0 ? { append: true } : {}),
      },
    })),
    {
      statusUpdate: {
        taskId,
        contextId,
        status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
      },
    },
  ];
}

/**
 * The same stream as a hand-written 0.3 server builds it, inline, in 0.3's own shapes (`kind` tags, lower-case
 * states, `final`): what the 0.3 baseline writes per request, as the 1.0 baselines build `events()` per request.
 * legacySseRows checks that it is, byte for byte, `events()` translated down.
 */
function legacyEvents(): unknown[] {
  const ids = { taskId: 'task-bench', contextId: 'ctx-bench' };
  return [
    { kind: 'task', id: ids.taskId, contextId: ids.contextId, status: { state: 'submitted' } },
    ...Array.from({ length: EVENTS - 2 }, (_, i) => ({
      kind: 'artifact-update',
      ...ids,
      ...(i > 0 ? { append: true } : {}),
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: `word${i} ` }] },
    })),
    {
      kind: 'status-update',
      ...ids,
      status: { timestamp: '2026-01-01T00:00:00.000Z', state: 'completed' },
      final: true,
    },
  ];
}

/** A JSON-RPC request's `id`, as a hand-written server echoes it (undefined when the body has none). */
function requestId(body: unknown): { id: unknown } {
  return { id: typeof body === 'object' && body !== null && 'id' in body ? body.id : undefined };
}

/**
 * `BENCH_A2A_ONLY=validators`, `=translate`, `=sse`, `=legacy` or `=push` (comma-separated) runs some of the measures.
 */
const ONLY = process.env.BENCH_A2A_ONLY?.split(',');
const want = (name: string) => ONLY === undefined || ONLY.includes(name);

export async function benchA2a(): Promise<Row[]> {
  return [
    ...(want('validators') ? await validatorRows() : []),
    ...(want('translate') ? translateRows() : []),
    ...(want('sse') ? await sseRows() : []),
    ...(want('legacy') ? await legacySseRows() : []),
    ...(want('push') ? await pushRows() : []),
  ];
}

/** Translating 1.0 stream events to 0.3 (both dialects), per event, as a ratio to JSON.parse of the 1.0 event. */
function translateRows(): Row[] {
  const rows: Row[] = [];
  for (const [name, type, event] of [
    ['a status update', 'StreamEvent', events().at(-1)],
    ['an artifact chunk', 'StreamEvent', events()[2]],
    ['an artifact chunk, HTTP+JSON (ProtoJSON)', 'ProtoStreamResponse', events()[2]],
  ] as const) {
    const text = JSON.stringify(event);
    const value = JSON.parse(text);
    const down = TRANSLATOR.codec(type).down;
    const r = compare({ parse: () => JSON.parse(text), translate: () => down(value) });
    const t = ratio(r.translate ?? [], r.parse ?? []);
    rows.push({
      measure: `a2a: 1.0 → 0.3 translation of a stream event (${name}, ${type}), time ÷ JSON.parse of the 1.0 event`,
      result: formatRatio(t),
      target: '≤ 0.1×',
      met: t.median <= 0.1,
      notes: `${text.length} bytes of JSON`,
    });
  }
  return rows;
}

/** A 0.3 client's stream, served by the 1.0 handlers through the translation, against raw node:http writing it. */
async function legacySseRows(): Promise<Row[]> {
  const stream = async function* () {
    yield* events();
  };
  const measured: Partial<A2aOperations> = { sendStreamingMessage: () => stream() };
  // sound: the proxy has every operation: the one measured, and for each other one a stub that throws.
  const operations = new Proxy(measured, {
    get: (o, k) =>
      Reflect.get(o, k) ??
      (() => {
        throw new Error('not measured');
      }),
  }) as A2aOperations;
  const app = serveA2a(operations, { validateResponses: false, onError: () => {} });
  const served = await serveLocal(app.fetch, 0);
  const translated = JSON.stringify(events().map(TRANSLATOR.codec('StreamEvent').down));
  if (JSON.stringify(legacyEvents()) !== translated)
    throw new Error('the 0.3 baseline builds other events than the translation makes');
  const raw = await listenNode(async (req, res) => {
    const { id } = requestId(await readJson(req));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // A hand-written 0.3 server builds its 0.3 events per request, as the 1.0 baselines do theirs, and pays no
    // translation at all.
    for (const e of legacyEvents())
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: e })}\n\n`);
    res.end();
  });
  const message = {
    message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'bench' }] },
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: message });
  const size = async (url: string) =>
    (
      await (
        await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      ).text()
    ).length;
  const sizes = [await size(`${served.url}/jsonrpc`), await size(`${raw.url}/jsonrpc`)];
  if (sizes[0] !== sizes[1])
    throw new Error(`the 0.3 SSE servers send different streams: ${sizes.join(', ')} bytes`);
  const r = await rounds({ generated: served, raw }, { path: '/jsonrpc', body });
  const x = ratio(r.generated ?? [], r.raw ?? []);
  return [
    {
      measure: `a2a: 0.3 JSON-RPC stream (message/stream, no A2A-Version) served by 1.0 handlers through the translation, ${EVENTS} events per request, requests/s ÷ raw node:http SSE`,
      result: formatRatio(x),
      target: '≥ 0.8×',
      met: x.median >= 0.8,
      notes: `raw ${Math.round(median(r.raw))} req/s; both write the same ${sizes[0]} bytes per answer; item checks off (production)`,
    },
  ];
}

async function validatorRows(): Promise<Row[]> {
  const version = (await loadProtocols(process.cwd(), ['a2a'])).find((v) => v.version === '1.0');
  const ajv = createAjv({ allErrors: true });
  for (const s of version?.schemas ?? []) {
    // The validate stage has made every schema file an object with its `$id`, as ajv takes it.
    if (typeof s.value !== 'object' || s.value === null) throw new Error(`${s.file}: not a schema object`);
    ajv.addSchema(forAjv(s.value));
  }
  const request = {
    message: {
      messageId: '9229e770-767c-417b-a0b0-f0741243c589',
      role: 'ROLE_USER',
      parts: [
        { text: 'Plan a trip to Lisbon on Friday.' },
        { data: { nights: 2, budget: 'mid' }, mediaType: 'application/json' },
      ],
      contextId: 'ctx-1',
    },
    configuration: { acceptedOutputModes: ['text/plain'], historyLength: 5 },
  };
  const cases = [
    {
      name: 'StreamResponse, an artifact chunk',
      type: 'StreamResponse' as const,
      good: events()[2],
      bad: { artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [] } } },
    },
    {
      name: 'SendMessageRequest',
      type: 'SendMessageRequest' as const,
      good: request,
      bad: { ...request, message: { ...request.message, role: 'user' } },
    },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    const text = JSON.stringify(c.good);
    const badText = JSON.stringify(c.bad);
    const gv = validators[c.type];
    // sound: the version's schemas are loaded above and none has `$async`, so ajv gives each type a synchronous
    // function that answers a boolean and keeps `errors`: a Validator.
    const rv = ajv.getSchema(schemaId('a2a', '1.0', c.type)) as Validator;
    const good = JSON.parse(text);
    const bad = JSON.parse(badText);
    if (!gv(good) || gv(bad) || !rv(good))
      throw new Error(`bench messages for ${c.type} are not what they should be`);
    const valid = compare({ parse: () => JSON.parse(text), generated: () => gv(good), ajv: () => rv(good) });
    const invalid = compare({
      parse: () => JSON.parse(badText),
      generated: () => gv(bad) || describeErrors(gv.errors).map((i) => i.pointer),
      ajv: () => rv(bad) || describeErrors(rv.errors).map((i) => i.pointer),
    });
    for (const [r, what, target] of [
      [valid, 'valid message', 0.1],
      [invalid, 'invalid message, every error with its pointer', 0.3],
    ] as const) {
      const g = ratio(r.generated ?? [], r.parse ?? []);
      rows.push({
        measure: `a2a: generated validator, ${what} (${c.name}), time ÷ JSON.parse`,
        result: formatRatio(g),
        target: `≤ ${target}×`,
        met: g.median <= target,
        notes: `runtime ajv ${formatRatio(ratio(r.ajv ?? [], r.parse ?? []))}`,
      });
    }
  }
  return rows;
}

async function sseRows(): Promise<Row[]> {
  const stream = async function* () {
    yield* events();
  };
  // Only the streaming operation is measured; every other one is a stub that answers 501.
  const only = <T extends object>(handlers: Partial<T>): T =>
    // sound: the proxy has every handler: the one given, and for each other one a stub that answers 501.
    new Proxy(handlers, {
      get: (h, k) => Reflect.get(h, k) ?? (() => ({ status: 501 })),
    }) as T;
  const restApp = createA2aApp(
    only<Parameters<typeof createA2aApp>[0]>({
      sendStreamingMessage: () => ({ status: 200, body: stream() }),
    }),
    {
      validateResponses: false,
    },
  );
  const rpcApp = createA2aRpcApp(
    only<Parameters<typeof createA2aRpcApp>[0]>({ SendStreamingMessage: () => stream() }),
    {
      validateResults: false,
    },
  );
  const rest = await serveLocal(restApp.fetch, 0);
  const rpc = await serveLocal(rpcApp.fetch, 0);
  // The baselines write the same events, built inline as a hand-written server would.
  const rawRest = await listenNode(async (req, res) => {
    await readJson(req);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const e of events()) res.write(`data: ${JSON.stringify(e)}\n\n`);
    res.end();
  });
  const rawRpc = await listenNode(async (req, res) => {
    const { id } = requestId(await readJson(req));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const e of events()) res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: e })}\n\n`);
    res.end();
  });
  const message = { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'bench' }] } };
  const restBody = JSON.stringify(message);
  const rpcBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: message });
  {
    // `rounds` closes the servers it measured.
    const size = async (url: string, body: string) =>
      (
        await (
          await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
        ).text()
      ).length;
    const sizes = [
      await size(`${rest.url}/message:stream`, restBody),
      await size(`${rawRest.url}/message:stream`, restBody),
    ];
    const rpcSizes = [await size(`${rpc.url}/`, rpcBody), await size(`${rawRpc.url}/`, rpcBody)];
    if (sizes[0] !== sizes[1] || rpcSizes[0] !== rpcSizes[1])
      throw new Error(
        `the SSE servers send different streams: ${sizes.join(', ')}; ${rpcSizes.join(', ')} bytes`,
      );
    const restRounds = await rounds(
      { generated: rest, raw: rawRest },
      { path: '/message:stream', body: restBody },
    );
    const rpcRounds = await rounds({ generated: rpc, raw: rawRpc }, { path: '/', body: rpcBody });
    const r1 = ratio(restRounds.generated ?? [], restRounds.raw ?? []);
    const r2 = ratio(rpcRounds.generated ?? [], rpcRounds.raw ?? []);
    return [
      {
        measure: `a2a: generated SSE endpoint, HTTP+JSON POST /message:stream, ${EVENTS} events per request, requests/s ÷ raw node:http SSE`,
        result: formatRatio(r1),
        target: '≥ 0.8×',
        met: r1.median >= 0.8,
        notes: `raw ${Math.round(median(restRounds.raw))} req/s; both write the same ${sizes[0]} bytes per answer; item checks off (production)`,
      },
      {
        measure: `a2a: generated JSON-RPC stream, SendStreamingMessage, ${EVENTS} events per request, requests/s ÷ raw node:http SSE`,
        result: formatRatio(r2),
        target: '≥ 0.8×',
        met: r2.median >= 0.8,
        notes: `raw ${Math.round(median(rpcRounds.raw))} req/s; both write the same ${rpcSizes[0]} bytes per answer (each event a JSON-RPC response); item checks off (production)`,
      },
    ];
  }
}

/**
 * A streamed task of the reference agent whose SendStreamingMessage carries a push config delivering every update to
 * a receiver on 127.0.0.1, against the same task without one: delivery runs beside the task, in the background, and
 * must not slow it (issue 38: ≥ 0.9×). Both agents get the same request; the pushing one adds the config to it on
 * the way in (a JSON parse and write per request, counted against it). Two measures: the tasks an agent runs per
 * second under as much load as it takes (what the deliveries cost), and the time one task takes at the agent's own
 * pace with a webhook that answers 50 ms late (whether the deliveries hold the task up: a task that waited for its
 * webhook would take seven of those answers longer).
 */
async function pushRows(): Promise<Row[]> {
  // The receivers in processes of their own, as a webhook is: what it costs to take the deliveries is not the agent's.
  const prompt = await startReceiver(0);
  const late = await startReceiver(LATE_MS);
  try {
    return [await pushThroughputRow(prompt.url), await pushPaceRow(late.url)];
  } finally {
    prompt.child.kill();
    late.child.kill();
  }
}

/** How late the slow webhook answers, in milliseconds. */
const LATE_MS = 50;

/** The two agents of a push measure (the reference agent at `chunkDelayMs`), and the bodies each is sent. */
async function pushAgents(chunkDelayMs: number, receiverUrl: string) {
  const plain = createReferenceAgent({ chunkDelayMs, onError: () => {}, validateResponses: false });
  const pushing = createReferenceAgent({
    chunkDelayMs,
    onError: () => {},
    validateResponses: false,
    push: { allowHosts: ['127.0.0.1'] },
  });
  const config = { url: `${receiverUrl}/hook`, authentication: { scheme: 'Bearer', credentials: 'bench' } };
  const message = { messageId: 'bench', role: 'ROLE_USER', parts: [{ text: 'Plan a trip to Oslo' }] };
  const headers = { 'A2A-Version': '1.0' };
  return {
    servers: { push: await serveLocal(pushing.app.fetch, 0), plain: await serveLocal(plain.app.fetch, 0) },
    close: () => pushing.push?.close(),
    target: {
      path: '/message:stream',
      // Each request carries its config, as a client's would: the push side pays for reading it, and nothing else.
      body: {
        push: JSON.stringify({ message, configuration: { taskPushNotificationConfig: config } }),
        plain: JSON.stringify({ message }),
      },
      headers: { push: headers, plain: headers },
    },
  };
}

/**
 * After each push round, the deliveries its tasks started are let finish before the next round: a backlog left behind
 * would be paid for in the round after it, whichever server that measures. Counts what arrived meanwhile.
 */
function settling(receiverUrl: string) {
  const count = async () => Number(await (await fetch(`${receiverUrl}/count`)).text());
  const state = { settled: 0, count };
  const after = async (name: string) => {
    if (name !== 'push') return;
    // Bounded: until the count stands still for three reads 100 ms apart, or 30 s.
    let last = await count();
    for (let still = 0, tries = 0; still < 3 && tries < 300; tries++) {
      await new Promise((done) => setTimeout(done, 100));
      const now = await count();
      still = now === last ? still + 1 : 0;
      state.settled += now - last;
      last = now;
    }
  };
  return { state, after };
}

async function pushThroughputRow(receiverUrl: string): Promise<Row> {
  const agents = await pushAgents(0, receiverUrl);
  try {
    const { state, after } = settling(receiverUrl);
    const r = await rounds(agents.servers, agents.target, after);
    const x = ratio(r.push ?? [], r.plain ?? []);
    return {
      measure:
        'a2a: streamed task (reference agent, HTTP+JSON) with a push config delivering each update to a receiver on 127.0.0.1, requests/s ÷ the same task without one',
      result: formatRatio(x),
      target: '≥ 0.9×',
      met: x.median >= 0.9,
      notes: `without push ${Math.round(median(r.plain))} req/s; ${await state.count()} deliveries received during the run, ${state.settled} of them after their round's load ended (the receiver: an HTTP/1.1 reader on node:net in its own process, reading and counting each request)`,
    };
  } finally {
    await agents.close();
  }
}

/** Clients at once in the pace measure: about 200 tasks a second, well below the ~500 the agent runs saturated. */
const PACE_CLIENTS = 4;

async function pushPaceRow(receiverUrl: string): Promise<Row> {
  // The reference agent's own pace: 5 ms between the chunks of its answer, as a model's tokens come.
  const agents = await pushAgents(5, receiverUrl);
  try {
    const { state, after } = settling(receiverUrl);
    const r = await measureRounds(agents.servers, { ...agents.target, connections: PACE_CLIENTS }, after);
    const time = (runs: LoadResult[] | undefined) => (runs ?? []).map((x) => x.latencyMean);
    const p99 = (runs: LoadResult[] | undefined) => Math.round(median((runs ?? []).map((x) => x.latencyP99)));
    // A speed: the time without push over the time with it.
    const x = ratio(time(r.plain), time(r.push));
    return {
      measure: `a2a: streamed task at the reference agent's pace (5 ms between chunks, ${PACE_CLIENTS} clients) with a push config whose webhook answers ${LATE_MS} ms late, task time without ÷ with`,
      result: formatRatio(x),
      target: '≥ 0.9×',
      met: x.median >= 0.9,
      notes: `a task takes ${median(time(r.plain)).toFixed(1)} ms without push, ${median(time(r.push)).toFixed(1)} ms with (p99 ${p99(r.plain)} and ${p99(r.push)} ms); ${await state.count()} deliveries received, ${state.settled} of them after their round's load ended`,
    };
  } finally {
    await agents.close();
  }
}

/** Starts the webhook receiver (RECEIVER) in a child process; answers its URL. */
async function startReceiver(delayMs: number) {
  const child = spawn(process.execPath, ['-e', RECEIVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, RECEIVER_DELAY_MS: String(delayMs) },
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return { child, url };
}

/**
 * The webhook receiver's program, the stand-in for a webhook on another machine: it reads each request's head (request
 * line, header fields, content-length) and its body, answers 200 to each POST and counts it, and answers `GET /count`
 * with the count; anything it cannot read is a 400 and the connection closed. An HTTP/1.1 reader on node:net rather
 * than node:http, whose request and response objects cost it about 2.5× the CPU per delivery (measured under this
 * bench): on this machine the receiver shares the cores of the agent it measures, which a remote webhook does not.
 * The answers to the requests one read holds (pipelined by the agent) go back in one write, in their order, and
 * `RECEIVER_DELAY_MS` after it when set (a webhook far away, or slow to answer).
 */
const RECEIVER = `
const net = require('node:net');
const DELAY = Number(process.env.RECEIVER_DELAY_MS ?? 0);
let count = 0;
const server = net.createServer((socket) => {
  let pending = null;
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    let buf = pending === null ? chunk : Buffer.concat([pending, chunk]);
    let out = '';
    for (;;) {
      const end = buf.indexOf('\\r\\n\\r\\n');
      if (end < 0) break;
      const lines = buf.latin1Slice(0, end).split('\\r\\n');
      const [method, target, version] = lines[0].split(' ');
      let length = 0;
      let bad = version !== 'HTTP/1.1';
      for (let i = 1; i < lines.length; i++) {
        const colon = lines[i].indexOf(':');
        if (colon <= 0) bad = true;
        else if (lines[i].slice(0, colon).toLowerCase() === 'content-length') length = Number(lines[i].slice(colon + 1));
      }
      if (bad || !(length >= 0)) return socket.end('HTTP/1.1 400 Bad Request\\r\\nconnection: close\\r\\ncontent-length: 0\\r\\n\\r\\n');
      if (buf.length < end + 4 + length) break;
      buf = buf.subarray(end + 4 + length);
      if (method === 'GET' && target === '/count') {
        const text = String(count);
        out += 'HTTP/1.1 200 OK\\r\\ncontent-length: ' + text.length + '\\r\\n\\r\\n' + text;
      } else if (method === 'POST') {
        count++;
        out += 'HTTP/1.1 200 OK\\r\\ncontent-length: 0\\r\\n\\r\\n';
      } else out += 'HTTP/1.1 405 Method Not Allowed\\r\\ncontent-length: 0\\r\\n\\r\\n';
    }
    pending = buf.length > 0 ? buf : null;
    if (out === '') return;
    if (DELAY > 0) setTimeout(() => { if (!socket.destroyed) socket.write(out, 'latin1'); }, DELAY);
    else socket.write(out, 'latin1');
  });
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;
