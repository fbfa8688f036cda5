// The inspector's server: the page, and the API it calls. It sends the page's requests to the agent, checks every
// message with the version's generated validators and stream check, keeps the session, and runs the conformance
// suite. It listens on 127.0.0.1 only, and every API call must carry a header no cross-site page can send without a
// preflight (which is never answered), with a Host of this machine: a web page open elsewhere cannot drive it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ProtocolBinding, Surface } from '@agentproto/runtime/contract';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { checkMessage } from '../../message-check.js';
import { SendError, type SendRequest, sendExchange } from './exchange.js';
import { SessionChecker, type SessionHeader, type SessionIssue, type SessionRecord } from './session.js';
import { ItemLabels } from './stream-items.js';

/** How the inspector is set up. */
export interface InspectorOptions {
  binding: ProtocolBinding;
  /** The agent's root URL (the page can change it). */
  target?: string;
  /** Headers every request the page sends carries (credentials, say), beside the protocol's own. */
  headers?: Readonly<Record<string, string>>;
  /** Calls the agent in memory instead of over the network (tests). */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * How long one request the page sends may take, in milliseconds (default 10 000): its headers and, for an answer
   * that is not a stream, its whole body. The conformance run takes it as its request timeout too.
   */
  timeoutMs?: number;
  /** How many records the session keeps (default 20,000); past that, new records are shown but not kept. */
  maxRecords?: number;
  /** How many bytes of messages the session keeps (default 64 MiB), with the same rule. */
  maxBytes?: number;
}

/** How long one request the page sends may take by default, in milliseconds (as `agentproto conformance`'s). */
export const DEFAULT_INSPECT_TIMEOUT_MS = 10_000;

/** The header every API call carries. */
export const API_HEADER = 'x-agentproto-inspector';

/** The API's body limit: a request body the page builds is small. */
const MAX_API_BODY = 1024 * 1024;

const asset = (name: string) =>
  readFileSync(new URL(`../../../assets/inspector/${name}`, import.meta.url), 'utf8');

/** The stylesheet the page shares with the docs site, from the generator's package (read as a file; no code loads). */
const baseCss = () =>
  readFileSync(
    path.join(
      path.dirname(createRequire(import.meta.url).resolve('@agentproto/codegen/package.json')),
      'assets/docs/base.css',
    ),
    'utf8',
  );

/** One operation as the page offers it. */
interface PageOperation {
  id: string;
  label: string;
  kind: 'http' | 'rpc';
  summary?: string;
  pathParams: Array<{ name: string; required: boolean }>;
  queryParams: Array<{ name: string; required: boolean }>;
  bodyType?: string;
  bodyKind?: string;
  example?: unknown;
  streams: boolean;
  /** A GET without parameters: what the agent says about itself (card, describe, handshake), fetched on load. */
  discovery: boolean;
}

/** The shortest of a type's examples: the plainest request, the one most agents take (no optional features). */
function smallest(examples: readonly unknown[] | undefined): unknown {
  return [...(examples ?? [])].sort((a, b) => JSON.stringify(a).length - JSON.stringify(b).length)[0];
}

function pageOperations(surface: Surface): PageOperation[] {
  const ops: PageOperation[] = surface.operations.map((o) => {
    const content = o.body?.contents[0];
    const example = content?.typeName ? smallest(surface.examples[content.typeName]) : undefined;
    return {
      id: o.operationId,
      label: `${o.method} ${o.path}`,
      kind: 'http',
      pathParams: o.pathParams.map((p) => ({ name: p.name, required: p.required })),
      queryParams: o.queryParams.map((p) => ({ name: p.name, required: p.required })),
      ...(content?.typeName ? { bodyType: content.typeName } : {}),
      ...(content ? { bodyKind: content.kind } : {}),
      ...(example === undefined ? {} : { example }),
      streams: Object.values(o.responses).some((list) => list.some((c) => c.kind === 'stream')),
      discovery: o.method === 'GET' && o.pathParams.length === 0 && o.queryParams.every((p) => !p.required),
    };
  });
  for (const m of surface.rpc?.methods ?? []) {
    // The HTTP operation of the same name (sendMessage for SendMessage) carries the same fields: its example serves.
    const twin = ops.find((o) => o.id.toLowerCase() === m.name.toLowerCase());
    ops.push({
      id: `rpc:${m.name}`,
      label: `JSON-RPC ${m.name}`,
      kind: 'rpc',
      pathParams: [],
      queryParams: [],
      bodyType: m.paramsType,
      bodyKind: 'json',
      example: twin?.example ?? {},
      streams: m.stream !== undefined,
      discovery: false,
    });
  }
  return ops;
}

/** Values seen in the agent's answers under a parameter's name (a task id, a run id), to fill the next request. */
function harvest(value: unknown, names: ReadonlySet<string>, into: Map<string, string>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value).slice(0, 200)) {
    if (names.has(k) && (typeof v === 'string' || typeof v === 'number') && String(v).length <= 200)
      into.set(k, String(v));
    else harvest(v, names, into, depth + 1);
  }
}

/** The inspector's app, and its session (for tests). */
export async function createInspector(options: InspectorOptions) {
  const { binding } = options;
  if (!binding.surface)
    throw new SendError(`${binding.protocol}@${binding.version} has no surface to inspect`);
  const surface = await binding.surface();
  const suite = binding.suite ? await binding.suite() : undefined;
  const headers = { ...(suite?.requestHeaders ?? {}), ...(options.headers ?? {}) };
  const operations = pageOperations(surface);
  const labels = new ItemLabels(binding, surface);
  const paramNames = new Set(
    operations.flatMap((o) => [...o.pathParams, ...o.queryParams].map((p) => p.name)),
  );
  const maxRecords = options.maxRecords ?? 20_000;
  const records: SessionRecord[] = [];
  const state = {
    target: options.target ?? '',
    started: new Date().toISOString(),
    records,
    bytes: 0,
    dropped: 0,
    exchanges: 0,
    hints: new Map<string, string>(),
    running: new Map<number, AbortController>(),
  };
  let checker = new SessionChecker(binding);
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const keep = (record: SessionRecord) => {
    const size = JSON.stringify(record).length;
    if (state.records.length < maxRecords && state.bytes + size <= maxBytes) {
      state.records.push(record);
      state.bytes += size;
    } else state.dropped++;
    if (record.direction !== 'request') harvest(record.message, paramNames, state.hints);
  };

  const app = new Hono();
  app.onError((error, c) => {
    const status = error instanceof SendError ? 400 : 502;
    return c.json({ error: error instanceof Error ? error.message : String(error) }, status);
  });
  app.use('/api/*', async (c, next) => {
    const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
    if (c.req.header(API_HEADER) !== '1' || !['127.0.0.1', 'localhost', '[::1]', ''].includes(host))
      return c.json(
        { error: `API calls come from the inspector's page (with the ${API_HEADER} header)` },
        403,
      );
    return next();
  });
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_API_BODY,
      onError: (c) => c.json({ error: 'the request is larger than 1 MiB' }, 413),
    }),
  );

  app.get('/', (c) => c.html(asset('index.html')));
  app.get('/favicon.ico', (c) => c.body(null, 204));
  app.get('/assets/inspector.js', (c) =>
    c.body(asset('inspector.js'), 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/assets/base.css', (c) => c.body(baseCss(), 200, { 'content-type': 'text/css; charset=utf-8' }));
  app.get('/assets/inspector.css', (c) =>
    c.body(asset('inspector.css'), 200, { 'content-type': 'text/css; charset=utf-8' }),
  );

  app.get('/api/info', (c) =>
    c.json({
      protocol: binding.protocol,
      version: binding.version,
      title: binding.title,
      target: state.target,
      operations,
      types: Object.keys(binding.validators).filter((n) => /^[A-Z]/.test(n)),
      hints: Object.fromEntries(state.hints),
      records: state.records.length,
      dropped: state.dropped,
      hasSuite: suite !== undefined,
    }),
  );

  app.post('/api/target', async (c) => {
    const { url } = await c.req.json<{ url?: unknown }>();
    if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url))
      return c.json({ error: 'the agent URL must be http:// or https://' }, 400);
    state.target = url;
    return c.json({ target: url });
  });

  app.post('/api/check', async (c) => {
    const { type, text } = await c.req.json<{ type?: unknown; text?: unknown }>();
    if (typeof type !== 'string' || typeof text !== 'string')
      return c.json({ error: 'give type and text' }, 400);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return c.json({
        valid: false,
        issues: [
          {
            pointer: '',
            message: `not JSON: ${error instanceof Error ? error.message : String(error)}`,
            rule: 'json',
          },
        ],
      });
    }
    const issues = checkMessage(binding, type, value);
    return c.json({ valid: issues.length === 0, issues });
  });

  app.post('/api/send', async (c) => {
    // Only the operation is checked here; a field of another type fails its exchange, with the reason on the page.
    const request = await c.req.json<SendRequest>();
    if (typeof request?.operation !== 'string') return c.json({ error: 'give an operation' }, 400);
    if (!state.target && !options.fetch) return c.json({ error: 'no agent URL yet' }, 400);
    const exchange = ++state.exchanges;
    const abort = new AbortController();
    state.running.set(exchange, abort);
    const encoder = new TextEncoder();
    // The page reads this answer as NDJSON, one line per record with its issues, as they happen.
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const line = (value: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        line({ exchange });
        try {
          await sendExchange(request, {
            binding,
            surface,
            target: state.target || 'http://agent.invalid',
            headers,
            checker,
            exchange,
            signal: abort.signal,
            timeoutMs: options.timeoutMs ?? DEFAULT_INSPECT_TIMEOUT_MS,
            labels,
            // A stream item's label and a stream's answer go to the page only: the session keeps what was said.
            emit: (record: SessionRecord, issues: SessionIssue[], label?: readonly string[]) => {
              keep(record);
              line({ record, issues, ...(label && label.length > 0 ? { label } : {}) });
            },
            answer: (answer) => line({ answer }),
            ...(options.fetch ? { fetch: options.fetch } : {}),
          });
        } catch (error) {
          line({ error: error instanceof Error ? error.message : String(error) });
        } finally {
          state.running.delete(exchange);
          controller.close();
        }
      },
      cancel() {
        abort.abort();
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } });
  });

  app.post('/api/stop/:exchange', (c) => {
    const running = state.running.get(Number(c.req.param('exchange')));
    running?.abort();
    return c.json({ stopped: running !== undefined });
  });

  app.post('/api/conformance', async (c) => {
    if (!suite)
      return c.json({ error: `${binding.protocol}@${binding.version} has no conformance suite` }, 400);
    if (!state.target && !options.fetch) return c.json({ error: 'no agent URL yet' }, 400);
    const { runConformance } = await import('@agentproto/conformance');
    const report = await runConformance({
      protocol: `${binding.protocol}@${binding.version}`,
      target: options.fetch ? { fetch: options.fetch } : state.target,
      timeoutMs: options.timeoutMs ?? DEFAULT_INSPECT_TIMEOUT_MS,
    });
    return c.json(report);
  });

  app.get('/api/session', (c) => {
    const header: SessionHeader = {
      agentprotoSession: 1,
      protocol: binding.protocol,
      version: binding.version,
      target: state.target,
      started: state.started,
    };
    const text = [header, ...state.records].map((r) => JSON.stringify(r)).join('\n');
    const name = `${binding.protocol}-${state.started.replace(/[:.]/g, '-')}.session.ndjson`;
    return c.body(`${text}\n`, 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
    });
  });

  app.delete('/api/session', (c) => {
    state.records = [];
    state.bytes = 0;
    state.dropped = 0;
    state.started = new Date().toISOString();
    checker = new SessionChecker(binding);
    return c.json({ cleared: true });
  });

  return { app, session: state };
}
