// Broken MCP servers: the reference server with one fault each, in both revisions. Together they make every check of
// the MCP suite fail (the schema-driven ones are broken with the other protocols', in conformance.test.ts).
import { createReferenceServer } from '@agentproto/mcp/reference-agent';
import { record } from '../support/typed.js';
import { broken, json, type Match, type Rewrite, request, status } from './faults.js';

type App = { fetch: (r: Request) => Response | Promise<Response> };
// biome-ignore lint/suspicious/noExplicitAny: a fault edits whatever JSON the server answered
type Json = any;

const OLD = 'mcp@2025-11-25';
const NEW = 'mcp@2026-07-28';
const server = () => createReferenceServer().app;
/** The POSTs to the endpoint whose body names this method (and, if given, holds `also`). */
const method = (name: string, also?: string): Match => ({
  method: 'POST',
  path: /^\/mcp$/,
  body: (t) => t.includes(`"method":"${name}"`) && (also === undefined || t.includes(also)),
});
const fault = (
  protocol: string,
  name: string,
  fails: string,
  match: Match,
  rewrite: Rewrite,
  app: () => App = server,
): [string, { protocol: string; agent: () => App; fails: string }] => [
  `${protocol}: ${name}`,
  { protocol, fails, agent: () => broken(app(), match, rewrite) },
];
/** Rewrites the request's headers before the server sees it. */
const headers = (edit: (h: Headers, body: Json) => void): Rewrite =>
  request((r, b) => {
    const h = new Headers(r.headers);
    edit(h, b ? JSON.parse(b) : undefined);
    return new Request(r.url, { method: r.method, headers: h, ...(b ? { body: b } : {}) });
  });
/** Answers whatever the server refused (a 4xx) as if it had taken it. */
const refusedTaken: Rewrite = async (r, forward) => {
  const answer = await forward(r);
  if (answer.status < 400 || answer.status > 499) return answer;
  return new Response('{"jsonrpc":"2.0","id":1,"result":{}}', {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
};

export const mcpFaults: Array<[string, { protocol: string; agent: () => App; fails: string }]> = [
  fault(
    OLD,
    'initialize answers without serverInfo',
    'mcp.lifecycle.initialize',
    method('initialize'),
    json((b) => {
      delete b.result.serverInfo;
      return b;
    }),
  ),
  fault(OLD, 'requests outside a session are taken', 'mcp.lifecycle.session', method('ping'), refusedTaken),
  fault(
    OLD,
    'a request without its session is taken',
    'mcp.lifecycle.session.required',
    method('ping'),
    async (r, forward) => (r.headers.has('mcp-session-id') ? forward(r) : refusedTaken(r, forward)),
  ),
  fault(
    OLD,
    'ping answers a list',
    'mcp.ping',
    method('ping'),
    json((b) => ({ ...b, result: [] })),
  ),
  fault(
    OLD,
    'a notification is answered 200',
    'mcp.notification.accepted',
    method('notifications/initialized'),
    status(200),
  ),
  fault(
    OLD,
    'an unknown revision in the header is taken as its own',
    'mcp.version.unsupported',
    method('ping'),
    headers((h) => {
      if (h.get('mcp-protocol-version') === '1999-01-01') h.set('mcp-protocol-version', '2025-11-25');
    }),
  ),
  fault(
    OLD,
    'tools/list answers tools that are not a list',
    'mcp.tools.list',
    method('tools/list'),
    json((b) => {
      b.result.tools = 'every tool';
      return b;
    }),
  ),
  fault(
    OLD,
    'content blocks without a type',
    'mcp.tools.call',
    method('tools/call', 'test_simple_text'),
    json((b) => {
      for (const c of b.result.content ?? []) delete c.type;
      return b;
    }),
  ),
  // A refusal for a capability the client lacks is allowed only in its own form: with 200, it is judged as an answer.
  fault(
    NEW,
    'a refusal for a missing capability answered with 200',
    'mcp.tools.call',
    method('tools/call', 'test_missing_capability'),
    status(200),
  ),
  fault(
    NEW,
    'a prompt refused for a capability, without naming it',
    'mcp.prompts.get',
    method('prompts/get', 'test_simple_prompt'),
    async (request, forward) => {
      await forward(request);
      return new Response('{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"Missing capability"}}', {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    },
  ),
  fault(
    NEW,
    'an unsupported revision refused, but with another error than -32022',
    'mcp.version.unsupported',
    method('tools/list'),
    async (r, forward) =>
      r.headers.get('mcp-protocol-version') === '1999-01-01'
        ? json((b) => ({ ...b, error: { ...b.error, code: -32600 } }))(r, forward)
        : forward(r),
  ),
  fault(
    OLD,
    'an unknown tool is an internal error',
    'mcp.tools.unknown',
    method('tools/call', 'agentproto_no_such_tool'),
    json((b) => ({ ...b, error: { code: -32603, message: 'Internal error' } })),
  ),
  fault(
    OLD,
    'read contents without their uri',
    'mcp.resources.read',
    method('resources/read'),
    json((b) => {
      for (const c of b.result?.contents ?? []) delete c.uri;
      return b;
    }),
  ),
  fault(
    OLD,
    'a prompt message from the system',
    'mcp.prompts.get',
    method('prompts/get'),
    json((b) => {
      for (const m of b.result?.messages ?? []) m.role = 'system';
      return b;
    }),
  ),
  fault(
    OLD,
    'an unknown method is invalid params',
    'mcp.method.unknown',
    method('agentproto/no-such-method'),
    json((b) => ({ ...b, error: { code: -32602, message: 'Invalid params' } })),
  ),
  [
    `${OLD}: every Origin is taken`,
    {
      protocol: OLD,
      fails: 'mcp.origin.foreign',
      agent: () => createReferenceServer({ allowedOrigins: '*' }).app,
    },
  ],
  fault(
    OLD,
    'refusals without a message',
    'mcp.wire.schemas',
    { method: 'POST', path: /^\/mcp$/ },
    async (r, forward) => {
      const answer = await forward(r);
      if (answer.status < 400) return answer;
      const body = record(await answer.json());
      delete record(body.error).message;
      return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers });
    },
  ),
  fault(
    NEW,
    'server/discover leaves out the revision asked in',
    'mcp.discover',
    method('server/discover'),
    json((b) => {
      b.result.supportedVersions = ['2099-01-01'];
      return b;
    }),
  ),
  fault(
    NEW,
    'the mirrored headers are not compared with the body',
    'mcp.headers.mismatch',
    method('tools/list'),
    headers((h, body) => h.set('mcp-method', String(body?.method))),
  ),
  fault(
    NEW,
    'results without resultType',
    'mcp.result-type',
    method('tools/list'),
    json((b) => {
      delete b.result?.resultType;
      return b;
    }),
  ),
];
