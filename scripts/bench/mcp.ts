// MCP rows: the generated validators on a tools/call request, valid and invalid, as a ratio to JSON.parse (runtime ajv
// over the same schema files beside them); and a tool call's round trip through our Streamable HTTP server against the
// same tool served by the official SDK's (McpServer over StreamableHTTPServerTransport), both at 2025-11-25 with a
// session and JSON answers, under the same load in the same run; ours also with its results validated, as in
// development.
import { randomUUID } from 'node:crypto';
import { createAjv, forAjv, loadProtocols, schemaId } from '@agentproto/codegen';
import { GENERATED } from '@agentproto/mcp';
import { createMcpApp } from '@agentproto/mcp/server';
import { describeErrors, type LocalServer, serveLocal, type Validator } from '@agentproto/runtime';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { listenNode, rounds } from './http.js';
import { compare, formatRatio, ratio } from './timing.js';
import type { Row } from './validators.js';

const REVISION = '2025-11-25';

export async function benchMcp(): Promise<Row[]> {
  return [...(await validatorRows()), ...(await roundTripRows())];
}

async function validatorRows(): Promise<Row[]> {
  const version = (await loadProtocols(process.cwd(), ['mcp'])).find((v) => v.version === REVISION);
  const ajv = createAjv({ allErrors: true });
  for (const s of version?.schemas ?? []) {
    // The validate stage has made every schema file an object with its `$id`, as ajv takes it.
    if (typeof s.value !== 'object' || s.value === null) throw new Error(`${s.file}: not a schema object`);
    ajv.addSchema(forAjv(s.value));
  }
  const good = {
    jsonrpc: '2.0',
    id: 42,
    method: 'tools/call',
    params: {
      name: 'get_weather',
      arguments: { location: 'Lisbon', units: 'metric', days: 3 },
      _meta: { progressToken: 'p-42' },
    },
  };
  const bad = { ...good, params: { ...good.params, name: 7, arguments: 'Lisbon' } };
  const gv = GENERATED[REVISION].validators.CallToolRequest;
  // sound: the revision's schemas are loaded above and none has `$async`, so ajv gives the type a synchronous
  // function that answers a boolean and keeps `errors`: a Validator.
  const rv = ajv.getSchema(schemaId('mcp', REVISION, 'CallToolRequest')) as Validator;
  const text = JSON.stringify(good);
  const badText = JSON.stringify(bad);
  if (!gv(JSON.parse(text)) || gv(JSON.parse(badText)) || !rv(JSON.parse(text)))
    throw new Error('bench messages for CallToolRequest are not what they should be');
  const goodValue = JSON.parse(text);
  const badValue = JSON.parse(badText);
  const valid = compare({
    parse: () => JSON.parse(text),
    generated: () => gv(goodValue),
    ajv: () => rv(goodValue),
  });
  const invalid = compare({
    parse: () => JSON.parse(badText),
    generated: () => gv(badValue) || describeErrors(gv.errors).map((i) => i.pointer),
    ajv: () => rv(badValue) || describeErrors(rv.errors).map((i) => i.pointer),
  });
  const rows: Row[] = [];
  for (const [r, what, target] of [
    [valid, 'valid message', 0.05],
    [invalid, 'invalid message, every error with its pointer', 0.3],
  ] as const) {
    const g = ratio(r.generated ?? [], r.parse ?? []);
    const a = ratio(r.ajv ?? [], r.parse ?? []);
    rows.push({
      measure: `mcp: ${REVISION} CallToolRequest, ${what}, time ÷ JSON.parse of the same text`,
      result: formatRatio(g),
      target: `≤ ${target}×`,
      met: g.median <= target,
      notes: `runtime ajv over the same schema files: ${formatRatio(a)}`,
    });
  }
  return rows;
}

/** The tool both servers serve: adds two numbers, answering text and structured content. */
const add = (a: number, b: number) => ({
  content: [{ type: 'text' as const, text: String(a + b) }],
  structuredContent: { sum: a + b },
});

/** Whether a value is an object (an array too) whose members can be read by key. */
function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The official SDK's server at 2025-11-25: one McpServer and transport per session, JSON answers. */
async function sdkServer(): Promise<LocalServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return listenNode(async (req, res) => {
    const chunks: Buffer[] = [];
    // A request with no encoding set reads as Buffers.
    for await (const c of req) if (Buffer.isBuffer(c)) chunks.push(c);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport && isObjectLike(body) && body.method === 'initialize') {
      const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
      server.registerTool(
        'add',
        {
          description: 'Adds a and b.',
          inputSchema: { a: z.number(), b: z.number() },
          outputSchema: { sum: z.number() },
        },
        async ({ a, b }) => add(a, b),
      );
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sid) => {
          transports.set(sid, created);
        },
      });
      await server.connect(created);
      transport = created;
    }
    if (!transport) {
      res.writeHead(400).end();
      return;
    }
    await transport.handleRequest(req, res, body);
  });
}

/**
 * Our server at the same revision: one definition, sessions; results not re-validated (as in production), or
 * validated against their schema (the default in development, which this process is in: it sets no NODE_ENV).
 */
async function ourServer(validateResults = false): Promise<LocalServer> {
  const app = createMcpApp(
    {
      info: { name: 'bench-ours', version: '1.0.0' },
      tools: [
        {
          name: 'add',
          description: 'Adds a and b.',
          inputSchema: {
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
            required: ['a', 'b'],
          },
          outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
          call: (args) => add(Number(args.a), Number(args.b)),
        },
      ],
    },
    { validateResults },
  );
  return serveLocal(app.fetch, 0);
}

const HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION };

/** Opens a session on a server; the headers every later request carries. */
async function session(server: LocalServer): Promise<Record<string, string>> {
  const answer = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...HEADERS },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  const id = answer.headers.get('mcp-session-id');
  await answer.text();
  if (!id) throw new Error(`${server.url}: initialize opened no session (${answer.status})`);
  const headers = { ...HEADERS, 'mcp-session-id': id };
  await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  }).then((r) => r.text());
  return headers;
}

async function roundTripRows(): Promise<Row[]> {
  const ours = await ourServer();
  const sdk = await sdkServer();
  const validated = await ourServer(true);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'add', arguments: { a: 2, b: 3 } },
  });
  const headers = {
    ours: await session(ours),
    sdk: await session(sdk),
    validated: await session(validated),
  };
  // All answer the same result before anything is measured.
  for (const [name, server] of [
    ['ours', ours],
    ['sdk', sdk],
    ['validated', validated],
  ] as const) {
    const answer: unknown = await (
      await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers[name] },
        body,
      })
    ).json();
    const result = isObjectLike(answer) ? answer.result : undefined;
    const content = isObjectLike(result) ? result.structuredContent : undefined;
    if ((isObjectLike(content) ? content.sum : undefined) !== 5)
      throw new Error(`${name}: tools/call answered ${JSON.stringify(answer)}`);
  }
  const r = await rounds({ ours, sdk, validated }, { path: '/mcp', body, headers });
  const x = ratio(r.ours ?? [], r.sdk ?? []);
  const v = ratio(r.validated ?? [], r.sdk ?? []);
  return [
    {
      measure: `mcp: tools/call round trip (${REVISION}, a session, JSON answers), requests/s ÷ the official SDK's Streamable HTTP server serving the same tool`,
      result: formatRatio(x),
      target: '≥ 0.95×',
      met: x.median >= 0.95,
      notes: `@modelcontextprotocol/sdk 1.32.2 McpServer + StreamableHTTPServerTransport (enableJsonResponse) on node:http, which checks each request, and each tool call's result (as a CallToolResult and against the tool's output schema), with zod, with no switch to stop; ours checks each request's params and the tool's arguments, its results not re-validated, as in production; ours with results validated too (the default without NODE_ENV=production): ${formatRatio(v)}; ${Math.round(Math.max(...(r.ours ?? [0])))} req/s at best`,
    },
  ];
}
