// One request of the inspector, sent to the agent and read back: the request, the answer, and each item of a
// streamed answer become session records, each checked as it arrives (the same SessionChecker `agentproto validate`
// runs over a saved session). Requests go through openapi-fetch, the client the generated typed clients wrap, so
// parameters are written exactly as a typed client writes them.
import { toFormData } from '@agentproto/runtime';
import type {
  ProtocolBinding,
  Surface,
  SurfaceContent,
  SurfaceOperation,
} from '@agentproto/runtime/contract';
import { fetchWithin, parseFrames, readFrames, type StreamFraming } from '@agentproto/runtime/contract';
import createClient from 'openapi-fetch';
import type { MessageIssue } from '../../message-check.js';
import type { SessionChecker, SessionIssue, SessionRecord } from './session.js';
import { type ItemLabels, type StreamAnswer, StreamAnswerBuilder } from './stream-items.js';

/** What the page asks to send. */
export interface SendRequest {
  /** An operationId, or `rpc:<method>` for a JSON-RPC method. */
  operation: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** The request body (or the JSON-RPC params) as JSON text. */
  body?: string;
}

/** Where and how to send. */
export interface ExchangeContext {
  binding: ProtocolBinding;
  surface: Surface;
  target: string;
  headers: Readonly<Record<string, string>>;
  checker: SessionChecker;
  exchange: number;
  signal: AbortSignal;
  /** How long the request may take: its headers and, for an answer that is not a stream, its whole body. */
  timeoutMs: number;
  /** Called with each record and its issues, as they come; a stream item with the variant of its type it is. */
  emit: (record: SessionRecord, issues: SessionIssue[], label?: readonly string[]) => void;
  /** Labels stream items by the variant of their type (from the version's schemas and validators). */
  labels: ItemLabels;
  /** Called once a streamed answer ends, with what it answered. */
  answer?: (answer: StreamAnswer) => void;
  /** The agent's own fetch, for an agent in memory (tests). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The largest answer body the inspector reads whole (a stream is read item by item, without a total limit). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A request the page sent that cannot be sent as is: the page shows the reason. */
export class SendError extends Error {
  override name = 'SendError';
}

/** Sends one request and records everything that comes back. */
export async function sendExchange(request: SendRequest, ctx: ExchangeContext): Promise<void> {
  const at = () => new Date().toISOString();
  const base = { exchange: ctx.exchange, operation: request.operation };
  const record = (
    r: Omit<SessionRecord, 'exchange' | 'operation' | 'at'>,
    extra: MessageIssue[] = [],
    label?: readonly string[],
  ) => {
    const full: SessionRecord = { ...base, at: at(), ...r };
    ctx.emit(full, [...ctx.checker.push(full), ...extra], label);
  };
  let body: unknown;
  if (request.body !== undefined && request.body.trim() !== '') {
    try {
      body = JSON.parse(request.body);
    } catch (error) {
      throw new SendError(`the body is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // An agent that never answers, or drips its body, fails the exchange in time, saying what failed.
  const own = ctx.fetch;
  const client = createClient({
    baseUrl: withoutTrailingSlashes(ctx.target),
    headers: { ...ctx.headers },
    fetch: fetchWithin(own ? (r) => own(r) : (r) => globalThis.fetch(r), ctx.timeoutMs),
  });
  // openapi-fetch writes the request (path, query, body) as the typed clients do; the answer is read here, bounded and
  // item by item, so the client gets a bodiless stand-in and the real answer is kept aside.
  let answer: Response | undefined;
  client.use({
    onResponse({ response }) {
      answer = response;
      return new Response(null, { status: 204 });
    },
  });
  const sent = () => {
    if (!answer) throw new SendError('the agent gave no answer');
    return answer;
  };
  const rpcMethod = request.operation.startsWith('rpc:') ? request.operation.slice(4) : undefined;
  let response: Response;
  let op: SurfaceOperation | undefined;
  let streamType: string | undefined;
  // A JSON-RPC method streams responses: each item's `result` is of the method's result type.
  let enveloped = false;
  const streamIssues: MessageIssue[] = [];
  if (rpcMethod !== undefined) {
    const method = ctx.surface.rpc?.methods.find((m) => m.name === rpcMethod);
    if (!method) throw new SendError(`no JSON-RPC method ${rpcMethod}`);
    const params = body ?? {};
    record({ direction: 'request', type: method.paramsType, message: params });
    const envelope = { jsonrpc: '2.0', id: ctx.exchange, method: method.name, params };
    // sound: the client has no paths type (the surface is known only at run time), so its path and options are typed
    // never; openapi-fetch sends any path, and these options are its own
    await client.request(
      'post',
      (ctx.surface.rpc?.endpoint ?? '/') as never, // sound: see above
      // sound: see above
      {
        body: envelope,
        parseAs: 'stream',
        signal: ctx.signal,
      } as never,
    );
    response = sent();
    if (!method.stream) {
      const value = await readBody(response);
      const answer: object = typeof value === 'object' && value !== null ? value : {};
      if ('result' in answer)
        record({
          direction: 'response',
          status: response.status,
          type: method.resultType,
          message: answer.result,
        });
      else
        record(
          { direction: 'response', status: response.status, message: value },
          'error' in answer
            ? []
            : [{ pointer: '', message: 'not a JSON-RPC response (no result, no error)', rule: 'json-rpc' }],
        );
      return;
    }
    streamType = method.resultType;
    enveloped = true;
  } else {
    op = ctx.surface.operations.find((o) => o.operationId === request.operation);
    if (!op) throw new SendError(`no operation ${request.operation}`);
    const content = op.body?.contents[0];
    for (const p of op.pathParams) {
      if (!request.path?.[p.name]) throw new SendError(`the path parameter ${p.name} is required`);
    }
    record({
      direction: 'request',
      ...(content?.typeName && body !== undefined ? { type: content.typeName } : {}),
      ...(body === undefined ? {} : { message: body }),
    });
    const query = Object.fromEntries(Object.entries(request.query ?? {}).filter(([, v]) => v !== ''));
    const form = content?.kind === 'form';
    // sound: as for the JSON-RPC request above; the method is the surface's, lowercased as openapi-fetch names them
    await client.request(
      op.method.toLowerCase() as never,
      op.path as never,
      // sound: see above
      {
        params: { path: request.path ?? {}, query },
        ...(body === undefined ? {} : { body: form ? formBody(body, content) : body }),
        ...(form ? { bodySerializer: (b: unknown) => toFormData(b) } : {}),
        parseAs: 'stream',
        signal: ctx.signal,
      } as never,
    );
    response = sent();
    const declared = declaredContent(op, response);
    const framing = framingOf(response);
    if (!framing) {
      const value = await readBody(response);
      const extra: MessageIssue[] = [];
      if (!declared.status)
        extra.push({
          pointer: '',
          message: `status ${response.status} is not declared for ${op.method} ${op.path}`,
          rule: 'declared-status',
        });
      record(
        {
          direction: 'response',
          status: response.status,
          ...(declared.content?.typeName ? { type: declared.content.typeName } : {}),
          message: value,
        },
        extra,
      );
      return;
    }
    streamType = declared.content?.item?.typeName;
    if (declared.content?.kind !== 'stream')
      streamIssues.push({
        pointer: '',
        message: `${op.method} ${op.path} declares no stream for status ${response.status} and ${response.headers.get('content-type')}`,
        rule: 'declared-stream',
      });
  }
  // A streamed answer: each item is recorded and checked as it arrives.
  record(
    {
      direction: 'response',
      status: response.status,
      stream: true,
      message: { contentType: response.headers.get('content-type') },
    },
    streamIssues,
  );
  let complete = false;
  const gathered = new StreamAnswerBuilder();
  try {
    if (response.body) {
      // sound: Node's web streams are async iterable (since Node 16.5; we need 20); the DOM lib we compile with does
      // not declare it, so ReadableStream and AsyncIterable do not overlap for a single cast
      for await (const frame of parseFrames(
        readFrames(response.body as unknown as AsyncIterable<Uint8Array>, framingOf(response) ?? 'sse'),
      )) {
        if (!frame.ok) {
          record({ direction: 'event', message: frame.data }, [
            { pointer: '', message: frame.error, rule: 'json' },
          ]);
          continue;
        }
        const checked = ctx.binding.streamCheck ? { stream: true } : streamType ? { type: streamType } : {};
        const { item, label } = labelled(frame.value, streamType, enveloped, ctx.labels);
        gathered.push(item, label);
        record({ direction: 'event', ...checked, message: frame.value }, [], label);
      }
    }
    complete = true;
  } catch (error) {
    if (!ctx.signal.aborted) throw error;
  } finally {
    record({ direction: 'end', complete });
    ctx.answer?.(gathered.answer(complete));
  }
}

/** A stream item (a JSON-RPC response's result, for a method) and the variant of its type it is. */
function labelled(
  value: unknown,
  type: string | undefined,
  enveloped: boolean,
  labels: ItemLabels,
): { item: unknown; label: string[] } {
  if (enveloped && typeof value === 'object' && value !== null) {
    if ('result' in value) return { item: value.result, label: type ? labels.label(type, value.result) : [] };
    if ('error' in value) return { item: value.error, label: ['error'] };
  }
  return { item: value, label: type ? labels.label(type, value) : [] };
}

/** The status and headers of an answer: a fetch Response, or what `agentproto proxy` reads from node:http. */
export type AnswerHead = Pick<Response, 'status'> & { headers: Pick<Headers, 'get'> };

/** The framing of a streamed answer, from its media type; undefined for a whole body. */
export function framingOf(response: AnswerHead): StreamFraming | undefined {
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type === 'application/jsonl')
    return 'ndjson';
  return undefined;
}

/** What the operation declares for this answer: the status's entry (exact, range, default) and its content. */
export function declaredContent(
  op: SurfaceOperation,
  response: AnswerHead,
): { status: boolean; content?: SurfaceContent } {
  const status = String(response.status);
  const list = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
  if (!list) return { status: false };
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  const content = list.find((c) => c.mediaType === type) ?? list.find((c) => c.kind === 'json');
  return { status: true, ...(content ? { content } : {}) };
}

/** A whole answer body: JSON when it parses, else its text; at most MAX_BODY_BYTES are read. */
async function readBody(response: Response): Promise<unknown> {
  if (!response.body) return undefined;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return `(the answer is longer than ${MAX_BODY_BYTES} bytes; the inspector stopped reading it)`;
    }
    chunks.push(value);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A form body typed as JSON: the file fields' strings become files. */
function formBody(body: unknown, content: SurfaceContent): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const out: Record<string, unknown> = { ...body };
  for (const field of content.fileFields ?? []) {
    const v = out[field];
    if (typeof v === 'string') out[field] = new Blob([v], { type: 'text/plain' });
  }
  return out;
}

/** A URL without the slashes it ends with (the paths of the surface start with one). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
