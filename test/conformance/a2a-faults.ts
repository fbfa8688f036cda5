// Broken A2A agents: the reference agent with one fault each. Together they make every check of the A2A suite fail.
import { readFileSync } from 'node:fs';
import { createReferenceAgent } from '@agentproto/a2a/reference-agent';
import { signedReferenceAgent } from '@agentproto/a2a/reference-agent/serve';
import { postOutbound } from '@agentproto/runtime';
import type { JWK } from 'jose';
import { broken, header, json, type Match, type Rewrite, request, status, text } from './faults.js';

type App = { fetch: (r: Request) => Response | Promise<Response> };

const agent = () => createReferenceAgent({ chunkDelayMs: 0, onError: () => {} }).app;
const rpc = (method: string, also?: string): Match => ({
  method: 'POST',
  path: /^\/jsonrpc$/,
  body: (t) => t.includes(`"method":"${method}"`) && (also === undefined || t.includes(also)),
});
const withVersion10: Rewrite = request(
  (r, b) =>
    new Request(r.url, {
      method: r.method,
      headers: { ...Object.fromEntries(r.headers), 'a2a-version': '1.0' },
      ...(b ? { body: b } : {}),
    }),
);
const fault = (
  name: string,
  fails: string,
  match: Match,
  rewrite: Rewrite,
): [string, { protocol: string; agent: () => App; fails: string; fuzz?: true }] => [
  `a2a: ${name}`,
  {
    protocol: 'a2a',
    fails,
    // A fault of a schema-driven check needs those checks run.
    ...(fails.includes('.fuzz.') ? { fuzz: true as const } : {}),
    agent: () => broken(agent(), match, rewrite),
  },
];
/** Rewrites JSON-RPC answers that are JSON (a stream's answer passes untouched). */
const rpcAnswer =
  (edit: (body: { id?: unknown; error?: { code?: number } }) => unknown): Rewrite =>
  async (request, forward) => {
    const r = await forward(request);
    if (!(r.headers.get('content-type') ?? '').includes('json')) return r;
    return Response.json(edit(JSON.parse(await r.text())), { status: r.status });
  };
const NO_TASK = /\/tasks\/conformance-no-such-task$/;

/** The test key of the published card-signing vectors (schemas/a2a/card-signing-vectors.json). */
// sound: the vectors file this repository ships, whose keys are JWKs
const TEST_KEY = JSON.parse(
  readFileSync(new URL('../../schemas/a2a/card-signing-vectors.json', import.meta.url), 'utf8'),
).keys.EdDSA.private as JWK;
/** The reference agent with its card signed (the key set at its jku), as a fetch. */
export const signedAgent = (): App => {
  const ready = signedReferenceAgent('http://agent.test', TEST_KEY, { chunkDelayMs: 0, onError: () => {} });
  return { fetch: async (r) => (await ready)(r) };
};
const CARD: Match = { method: 'GET', path: /agent-card\.json$/ };
/** A broken agent whose signed card is edited after signing: the card-signature check fails. */
const signedFault = (
  name: string,
  // biome-ignore lint/suspicious/noExplicitAny: a fault edits whatever JSON the agent answered
  edit: (card: any) => unknown,
): [string, { protocol: string; agent: () => App; fails: string }] => [
  `a2a: ${name}`,
  { protocol: 'a2a', fails: 'a2a.card.signatures', agent: () => broken(signedAgent(), CARD, json(edit)) },
];

/**
 * A broken agent whose push notifications are broken by `edit` (the reference agent allowed to call the kit's
 * webhook on 127.0.0.1, as with --push-allow 127.0.0.1), failing `fails` over both bindings.
 */
const pushFault = (
  name: string,
  fails: string,
  edit: (server: ReturnType<typeof createReferenceAgent>) => void,
  options: Parameters<typeof createReferenceAgent>[0] = {},
): [string, { protocol: string; agent: () => App; fails: string }] => [
  `a2a: ${name}`,
  {
    protocol: 'a2a',
    fails,
    agent: () => {
      const server = createReferenceAgent({
        chunkDelayMs: 0,
        onError: () => {},
        ...options,
        push: { allowHosts: ['127.0.0.1'], ...options.push },
      });
      edit(server);
      return server.app;
    },
  },
];
/** The bearer token of the broken agents with an extended card. */
export const EXTENDED_TOKEN = 'fault-token';
/**
 * A broken agent whose extended card is behind EXTENDED_TOKEN, the kit's requests carrying it unless they set their
 * own Authorization (as `agentproto conformance --header` gives it), broken by `rewrite` where `match` says.
 */
const extendedFault = (
  name: string,
  fails: string,
  match: Match,
  rewrite: Rewrite,
): [string, { protocol: string; agent: () => App; fails: string }] => [
  `a2a: ${name}`,
  {
    protocol: 'a2a',
    fails,
    agent: () => {
      const { app } = createReferenceAgent({
        chunkDelayMs: 0,
        onError: () => {},
        extendedCardToken: EXTENDED_TOKEN,
      });
      return broken({ fetch: (r) => app.fetch(withAuthorization(r)) }, match, rewrite);
    },
  },
];
/** The request with the extended card's token, unless it has an Authorization of its own. */
const withAuthorization = (r: Request, force = false): Request => {
  if (r.headers.has('authorization') && !force) return r;
  const headers = new Headers(r.headers);
  headers.set('authorization', `Bearer ${EXTENDED_TOKEN}`);
  return new Request(r, { headers });
};
const EXTENDED: Match = { method: 'GET', path: /^\/extendedAgentCard$/ };

/** The push configs of a broken agent (its card declares push, so they are there). */
const pushOf = (server: ReturnType<typeof createReferenceAgent>) => {
  if (!server.push) throw new Error('the reference agent declares push notifications');
  return server.push;
};

/** One broken agent per check of the A2A suite. */
export const a2aFaults = [
  fault('no agent card', 'a2a.card', { method: 'GET', path: /agent-card\.json$/ }, status(404)),
  fault(
    'the card declares only 0.3',
    'a2a.card.interfaces',
    { method: 'GET', path: /agent-card\.json$/ },
    json((c) => ({
      ...c,
      supportedInterfaces: c.supportedInterfaces.map((i: object) => ({ ...i, protocolVersion: '0.3' })),
    })),
  ),
  signedFault('the signed card was changed after signing', (c) => ({
    ...c,
    description: `${c.description} (changed)`,
  })),
  signedFault('the card signature names no kid', (c) => ({
    ...c,
    signatures: [{ ...c.signatures[0], protected: Buffer.from('{"alg":"EdDSA"}').toString('base64url') }],
  })),
  fault('REST send fails', 'a2a.rest.send', { method: 'POST', path: /^\/message:send$/ }, status(500)),
  fault(
    'REST get answers another task',
    'a2a.rest.get',
    { method: 'GET', path: /^\/tasks\/[0-9a-f-]{36}$/ },
    json((t) => ({ ...t, id: 'another' })),
  ),
  fault('REST unknown task is a 500', 'a2a.rest.not-found', { method: 'GET', path: NO_TASK }, status(500)),
  fault(
    'REST stream is plain text',
    'a2a.rest.stream',
    { method: 'POST', path: /^\/message:stream$/ },
    header('content-type', 'text/plain'),
  ),
  fault('REST list fails', 'a2a.rest.list', { method: 'GET', path: /^\/tasks\?/ }, status(500)),
  fault(
    'REST cancel of a finished task succeeds',
    'a2a.rest.cancel-terminal',
    { method: 'POST', path: /:cancel$/ },
    status(200),
  ),
  fault('REST ignores A2A-Version', 'a2a.rest.version', { method: 'GET', path: NO_TASK }, withVersion10),
  fault('RPC send fails', 'a2a.rpc.send', rpc('SendMessage', 'Porto'), status(500)),
  fault(
    'RPC get answers another task',
    'a2a.rpc.get',
    rpc('GetTask'),
    json((b) => (b.result ? { ...b, result: { ...b.result, id: 'another' } } : b)),
  ),
  fault(
    'RPC unknown task is an internal error',
    'a2a.rpc.not-found',
    rpc('GetTask', 'conformance-no-such-task'),
    json((b) => ({ ...b, error: { code: -32603, message: 'x' } })),
  ),
  fault(
    'RPC stream is JSON',
    'a2a.rpc.stream',
    rpc('SendStreamingMessage'),
    header('content-type', 'application/json'),
  ),
  fault(
    'RPC list breaks its schema',
    'a2a.rpc.list',
    rpc('ListTasks'),
    json((b) => ({ ...b, result: { tasks: 'none' } })),
  ),
  fault(
    'RPC cancel of a finished task succeeds',
    'a2a.rpc.cancel-terminal',
    rpc('CancelTask'),
    json((b) => ({ jsonrpc: '2.0', id: b.id, result: {} })),
  ),
  fault(
    'RPC ignores A2A-Version',
    'a2a.rpc.version',
    rpc('GetTask', 'conformance-no-such-task'),
    withVersion10,
  ),
  fault(
    'RPC unknown method is an invalid request',
    'a2a.rpc.method-not-found',
    rpc('NoSuchMethod'),
    json((b) => ({ ...b, error: { code: -32600, message: 'x' } })),
  ),
  fault(
    'RPC answers a parse error with a result',
    'a2a.rpc.parse-error',
    { method: 'POST', path: /^\/jsonrpc$/, body: (t) => t.endsWith('"method":') },
    text('{"jsonrpc":"2.0","id":null,"result":{}}'),
  ),
  fault(
    'RPC takes invalid params',
    'a2a.rpc.invalid-params',
    rpc('SendMessage', '{"message":{"role":"ROLE_USER"}}'),
    json((b) => ({ ...b, error: { code: -32603, message: 'x' } })),
  ),
  fault(
    'a listed task has a lower-case state',
    'a2a.wire.schemas',
    { method: 'GET', path: /^\/tasks\?/ },
    json((b) => ({
      ...b,
      tasks: b.tasks.map((t: { status: object }) => ({ ...t, status: { ...t.status, state: 'completed' } })),
    })),
  ),
  fault(
    'REST subscribe to a finished task streams',
    'a2a.rest.subscribe-terminal',
    { method: 'POST', path: /:subscribe$/ },
    status(200),
  ),
  fault(
    'REST history 0 keeps the history',
    'a2a.rest.history-zero',
    { method: 'GET', path: /historyLength=0$/ },
    json((t) => ({ ...t, history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] }] })),
  ),
  fault(
    'REST list carries artifacts unasked',
    'a2a.rest.list-artifacts',
    { method: 'GET', path: /^\/tasks\?pageSize=20$/ },
    json((b) => ({ ...b, tasks: b.tasks.map((t: object) => ({ ...t, artifacts: [] })) })),
  ),
  fault(
    'RPC subscribe to a finished task answers a task',
    'a2a.rpc.subscribe-terminal',
    rpc('SubscribeToTask'),
    json((b) => ({ jsonrpc: '2.0', id: b.id, result: {} })),
  ),
  fault(
    'RPC history 0 keeps the history',
    'a2a.rpc.history-zero',
    rpc('GetTask', '"historyLength":0'),
    json((b) => ({
      ...b,
      result: { ...b.result, history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] }] },
    })),
  ),
  fault(
    'RPC list carries artifacts unasked',
    'a2a.rpc.list-artifacts',
    rpc('ListTasks', '"pageSize":20'),
    json((b) => ({
      ...b,
      result: { ...b.result, tasks: b.result.tasks.map((t: object) => ({ ...t, artifacts: [] })) },
    })),
  ),
  fault(
    'JSON-RPC takes params that break their schema',
    'a2a.fuzz.invalid',
    { method: 'POST', path: /^\/jsonrpc$/ },
    rpcAnswer((b) => (b.error?.code === -32602 ? { jsonrpc: '2.0', id: b.id, result: {} } : b)),
  ),
  fault(
    'JSON-RPC answers an error code nothing declares',
    'a2a.fuzz.declared',
    { method: 'POST', path: /^\/jsonrpc$/ },
    rpcAnswer((b) => (b.error ? { ...b, error: { ...b.error, code: -32050 } } : b)),
  ),
  fault(
    'REST pages leave a task out each',
    'a2a.rest.list-pages',
    { method: 'GET', path: /^\/tasks\?pageSize=2/ },
    json((b) => ({ ...b, tasks: b.tasks.slice(1) })),
  ),
  fault(
    'RPC pages come in the oldest first',
    'a2a.rpc.list-pages',
    rpc('ListTasks', '"pageSize":2'),
    json((b) => ({ ...b, result: { ...b.result, tasks: [...b.result.tasks].reverse() } })),
  ),
  pushFault('push deliveries are not StreamResponses', 'a2a.rest.push-delivery', () => {}, {
    push: {
      post: (url, post) =>
        postOutbound(url, { ...post, body: JSON.stringify({ event: JSON.parse(post.body) }) }),
    },
  }),
  pushFault('push deliveries carry no Authorization', 'a2a.rpc.push-auth', () => {}, {
    push: {
      post: (url, { headers: { authorization: _, ...headers }, ...post }) =>
        postOutbound(url, { ...post, headers }),
    },
  }),
  pushFault('a push config reads back with another URL', 'a2a.rest.push-config', (server) => {
    const push = pushOf(server);
    const get = push.get.bind(push);
    push.get = async (params) => ({ ...(await get(params)), url: 'https://elsewhere.example/hook' });
  }),
  pushFault('deleting a push config twice is TaskNotFound', 'a2a.rpc.push-delete', (server) => {
    const push = pushOf(server);
    const remove = push.delete.bind(push);
    push.delete = async (params) => {
      await push.get(params);
      return remove(params);
    };
  }),
  pushFault('deleting a push config does nothing', 'a2a.rest.push-after-delete', (server) => {
    pushOf(server).delete = async () => ({});
  }),
  extendedFault(
    'the extended card is served whatever the token',
    'a2a.rest.extended-card-auth',
    EXTENDED,
    async (r, forward) => forward(withAuthorization(r, true)),
  ),
  extendedFault(
    'the 401 of the extended card carries no challenge',
    'a2a.rpc.extended-card-auth',
    rpc('GetExtendedAgentCard'),
    async (r, forward) => {
      const answer = await forward(r);
      const headers = new Headers(answer.headers);
      headers.delete('www-authenticate');
      return new Response(answer.body, { status: answer.status, headers });
    },
  ),
  extendedFault(
    'the extended card has no name',
    'a2a.rest.extended-card',
    EXTENDED,
    json((c) => ({ ...c, name: undefined })),
  ),
  extendedFault(
    'the extended card over JSON-RPC has skills that are not a list',
    'a2a.rpc.extended-card',
    rpc('GetExtendedAgentCard'),
    json((b) => (b.result ? { ...b, result: { ...b.result, skills: 'many' } } : b)),
  ),
];
