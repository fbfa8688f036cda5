// The client side of a JSON-RPC 2.0 endpoint: one call answered with a result or a JsonRpcError, or one call answered
// with a stream of responses, read item by item.
import { DEFAULT_REQUEST_TIMEOUT_MS, fetchWithin } from '../fetch-within.js';
import { readItems, type StreamFraming, StreamReadError } from '../streams/read-frames.js';
import { isObjectLike } from '../unknown-values.js';
import { JsonRpcError } from './rpc-error.js';

/** Where and how an RPC client reaches its endpoint. */
export interface RpcClientOptions {
  /** The endpoint's URL (with a `fetch` for an app in memory, any origin will do). */
  url: string;
  /** A fetch to use instead of the global one: `(r) => app.fetch(r)` talks to an app in memory. */
  fetch?: (request: Request) => Response | Promise<Response>;
  /** Headers sent with every request (read again for each request: a client may change them between calls). */
  headers?: Record<string, string>;
  /**
   * What a call accepts (default `application/json`). A transport that may answer a call with an SSE stream of
   * messages ending in its response (MCP's Streamable HTTP) lists `text/event-stream` too; such an answer is read up to
   * the response with the call's id.
   */
  accept?: string;
  /** Told every message of a streamed answer that is not the call's response (a notification, a request). */
  onMessage?: (message: unknown) => void;
  /** Told every answer's status and headers before its body is read (to keep a session id, say). */
  onResponse?: (response: Response, method: string) => void;
  /** Changes each call before it is sent: its params (say, with `_meta` added) and headers of its own. */
  prepare?: (method: string, params: unknown) => { params: unknown; headers?: Record<string, string> };
  /** Fail a streamed answer that sends nothing for this long, in milliseconds (default 60 000). */
  idleTimeoutMs?: number;
  /**
   * Give up on a call after this long, in milliseconds (default 60 000): waiting for its answer's headers and, for an
   * answer that is not a stream, reading its body. It rejects with a FetchTimeout naming the request.
   */
  timeoutMs?: number;
}

/** Per-call options. */
export interface RpcCallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Sends JSON-RPC calls to one endpoint. Ids are numbers counting up from 1. */
export class RpcCaller {
  #next = 1;
  // Every call gives up in time and says what failed: an endpoint that never answers cannot hang the client.
  readonly #fetch: (request: Request) => Promise<Response>;
  constructor(private readonly options: RpcClientOptions) {
    const own = options.fetch;
    this.#fetch = fetchWithin(
      own ? async (request) => own(request) : (request) => fetch(request),
      options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    );
  }

  /** Calls a method; resolves with its result, rejects with a JsonRpcError when the answer is an error. */
  async call<R>(method: string, params: unknown, options: RpcCallOptions = {}): Promise<R> {
    const id = this.#next++;
    const response = await this.#post(method, params, id, this.options.accept ?? 'application/json', options);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body)
      return resultOf<R>(await readJson(response), id);
    // An answer sent as an event stream: the messages before the response go to onMessage, the response ends it.
    const items = readItems(response.body, 'sse', {
      idleTimeoutMs: this.options.idleTimeoutMs ?? 60_000,
      skipEmptyEvents: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for await (const item of items) {
      const m: Record<string, unknown> = isObjectLike(item) ? item : {};
      if (m.id === id && ('result' in m || 'error' in m)) {
        await items.return(undefined);
        return resultOf<R>(m, id);
      }
      this.options.onMessage?.(item);
    }
    throw new StreamReadError(`the event stream ended without the response to request ${id}`, 0, 0);
  }

  /**
   * Sends a notification: no id, so nothing answers it. Resolves once the endpoint has taken it (any 2xx, whose body
   * is not read); rejects with a StreamReadError naming the status when the endpoint refuses it.
   */
  async notify(method: string, params: unknown, options: RpcCallOptions = {}): Promise<void> {
    const response = await this.#post(
      method,
      params,
      undefined,
      'application/json, text/event-stream',
      options,
    );
    await response.body?.cancel();
    if (!response.ok)
      throw new StreamReadError(`the notification ${method} was refused with HTTP ${response.status}`, 0, 0);
  }

  /**
   * Calls a method that answers with a stream; yields each result. Throws a JsonRpcError when the answer (or one of
   * its events) is an error, and StreamReadError for a broken or silent stream.
   */
  async *stream<R>(
    method: string,
    params: unknown,
    framing: StreamFraming,
    options: RpcCallOptions = {},
  ): AsyncGenerator<R> {
    const id = this.#next++;
    const accept = framing === 'sse' ? 'text/event-stream' : 'application/x-ndjson';
    const response = await this.#post(method, params, id, accept, options);
    const type = response.headers.get('content-type') ?? '';
    // An error before the stream starts comes back as one JSON answer.
    if (!type.startsWith(accept)) {
      resultOf(await readJson(response), id);
      throw new StreamReadError(`expected a ${accept} answer, got "${type}"`, 0, 0);
    }
    if (!response.body) return;
    const idle = this.options.idleTimeoutMs ?? 60_000;
    for await (const item of readItems(response.body, framing, {
      idleTimeoutMs: idle,
      ...(options.signal ? { signal: options.signal } : {}),
    }))
      yield resultOf<R>(item, id);
  }

  async #post(
    method: string,
    params: unknown,
    id: number | undefined,
    accept: string,
    options: RpcCallOptions,
  ): Promise<Response> {
    const prepared = this.options.prepare?.(method, params) ?? { params };
    const request = new Request(this.options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept,
        ...this.options.headers,
        ...prepared.headers,
        ...options.headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        ...(id === undefined ? {} : { id }),
        method,
        ...(prepared.params === undefined ? {} : { params: prepared.params }),
      }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const response = await this.#fetch(request);
    this.options.onResponse?.(response, method);
    return response;
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new StreamReadError(
      `the answer (HTTP ${response.status}) is not JSON: ${text.slice(0, 200)}`,
      0,
      0,
    );
  }
}

/** The result of one response, or its error thrown. */
function resultOf<R>(answer: unknown, id: number): R {
  const a: Record<string, unknown> = isObjectLike(answer) ? answer : {};
  if (a.jsonrpc !== '2.0' || (a.id !== id && a.id !== null))
    throw new StreamReadError(
      `not a JSON-RPC 2.0 answer to request ${id}: ${JSON.stringify(answer)?.slice(0, 200)}`,
      0,
      0,
    );
  if ('error' in a) {
    const e: Record<string, unknown> = isObjectLike(a.error) ? a.error : {};
    throw new JsonRpcError(
      typeof e.code === 'number' ? e.code : 0,
      typeof e.message === 'string' ? e.message : 'error',
      e.data,
    );
  }
  if (!('result' in a))
    throw new StreamReadError(`the answer to request ${id} has neither result nor error`, 0, 0);
  // sound: R is the result type the generated client names for the method it called; like every generated client,
  // this one trusts the server's answer to have the declared type (results are not validated on this side).
  return a.result as R;
}
