// The runtime's light entry only: the kit reads and checks messages, and never needs the HTTP server.
import {
  type CallOptions,
  describeErrors,
  describeFetchError,
  type Exchange,
  MAX_BODY_BYTES,
  type ParsedFrame,
  parseFrames,
  readFrames,
  type StreamedExchange,
  type StreamFraming,
  type StreamIssue,
  type StreamOptions,
  type SuiteSession,
  withTimeout,
} from '@agentproto/runtime/contract';
import { parse as parseYaml } from 'yaml';
import { isObject } from './is-object.js';
import { messageOf } from './message-of.js';
import { CheckFailure, type ProtocolBinding } from './types.js';

/** Where the kit sends its requests: a base URL (and the fetch to reach it), or an app's fetch in memory. */
export interface Target {
  /** The server's root, or `http://app` for an app in memory. */
  baseUrl: string;
  fetch: (request: Request) => Response | Promise<Response>;
  /** How the report names the target. */
  label: string;
}

/** The most items the kit reads from one stream: an agent that never ends its stream fails instead of hanging. */
export const MAX_STREAM_ITEMS = 10_000;

/**
 * The kit's HTTP layer. Every answer body and every stream item it receives is validated against the protocol's
 * schemas: the count and each failure are kept for the run's wire-schema check, and `call` returns the problems so
 * the check that made the request can fail with them.
 */
export class Session implements SuiteSession {
  messagesValidated = 0;
  /** Every problem of a message that broke its schema: request, pointer, what was expected. */
  readonly wireFailures: string[] = [];
  /** How many messages broke their schemas (a message with several problems counts once), unreadable ones included. */
  messagesFailed = 0;
  /** How many answers that should have been a message could not be read as one (not JSON, or no response). */
  messagesUnreadable = 0;

  constructor(
    readonly target: Target,
    readonly binding: ProtocolBinding,
    readonly timeoutMs: number,
  ) {}

  /** Validates a message against a type of the protocol; returns the problems, each naming request and pointer. */
  validate(label: string, typeName: string, value: unknown): string[] {
    const validate = this.binding.validators[typeName];
    if (!validate) throw new Error(`the ${this.binding.protocol} binding has no type ${typeName}`);
    this.messagesValidated++;
    if (validate(value)) return [];
    this.messagesFailed++;
    const problems = describeErrors(validate.errors).map(
      (i) => `${label}: ${i.pointer || '(body)'}: ${i.message} (${typeName})`,
    );
    this.wireFailures.push(...problems);
    return problems;
  }

  /** Sends a request and reads the whole answer; validates the body against `expect` for its status. */
  async call(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Exchange & { problems: string[] }> {
    const label = `${method} ${path}`;
    const { response, abort } = await this.send(method, path, options, label);
    const type = response.headers.get('content-type') ?? '';
    const stream = response.body;
    if (options.answerId !== undefined && type.includes('text/event-stream') && stream)
      return this.#streamedAnswer(label, response, stream, options.answerId, abort, options);
    const text = await readText(response, this.timeoutMs, label, abort);
    let body: unknown;
    try {
      body = /yaml/.test(type) ? parseYaml(text) : text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const exchange = { label, status: response.status, headers: response.headers, text, body };
    const typeName = options.expect?.[String(response.status)] ?? options.expect?.['*'];
    const problems = typeName
      ? body === undefined
        ? [
            `${label}: answered ${response.status} with a body that is not ${/yaml/.test(type) ? 'YAML' : 'JSON'} (${typeName} expected)`,
          ]
        : this.validate(label, typeName, body)
      : [];
    if (typeName && body === undefined) {
      this.messagesUnreadable++;
      this.messagesFailed++;
      this.wireFailures.push(...problems);
    }
    return { ...exchange, problems };
  }

  /**
   * A JSON-RPC answer sent as an SSE stream: the events are read (each within the timeout, at most MAX_STREAM_ITEMS)
   * up to the response with the request's id, which is the body; what came before it is kept in the text.
   */
  async #streamedAnswer(
    label: string,
    response: Response,
    stream: ReadableStream<Uint8Array>,
    id: string | number,
    abort: AbortController,
    options: CallOptions,
  ): Promise<Exchange & { problems: string[] }> {
    const seen: string[] = [];
    let body: unknown;
    const reader = readWithin(stream, this.timeoutMs, label);
    try {
      for await (const frame of parseFrames(readFrames(reader, 'sse'))) {
        if (frame.data.trim() === '') continue;
        seen.push(frame.data);
        const value = frame.ok ? frame.value : undefined;
        if (isObject(value) && value.id === id && ('result' in value || 'error' in value)) {
          body = value;
          break;
        }
        if (seen.length >= MAX_STREAM_ITEMS) break;
      }
    } finally {
      // The rest of the stream (if any) is not needed.
      abort.abort();
    }
    const typeName = options.expect?.[String(response.status)] ?? options.expect?.['*'];
    const problems =
      typeName === undefined
        ? []
        : body === undefined
          ? [`${label}: the event stream ended without the response to request ${JSON.stringify(id)}`]
          : this.validate(label, typeName, body);
    if (typeName && body === undefined) {
      this.messagesUnreadable++;
      this.messagesFailed++;
      this.wireFailures.push(...problems);
    }
    return {
      label,
      status: response.status,
      headers: response.headers,
      text: seen.join('\n'),
      body,
      problems,
    };
  }

  /**
   * Sends a request whose answer is a stream, and reads it item by item (to its end, at most MAX_STREAM_ITEMS, each
   * within the timeout). Items are checked with the protocol's stream check, or against `itemType`.
   */
  async stream(
    method: string,
    path: string,
    framing: StreamFraming,
    options: StreamOptions = {},
  ): Promise<StreamedExchange> {
    const label = `${method} ${path}`;
    const { response, abort } = await this.send(method, path, options, label);
    const exchange = { label, status: response.status, headers: response.headers, text: '', body: undefined };
    if (!response.ok || !response.body) {
      const text = await readText(response, this.timeoutMs, label, abort);
      return { ...exchange, text, items: [], issues: [] };
    }
    const check = options.itemType ? undefined : this.binding.streamCheck?.();
    const items: ParsedFrame[] = [];
    const issues: StreamIssue[] = [];
    const reader = readWithin(response.body, this.timeoutMs, label);
    try {
      for await (const frame of parseFrames(readFrames(reader, framing))) {
        items.push(frame);
        this.messagesValidated++;
        let found: StreamIssue[];
        if (!frame.ok)
          found = [
            { index: frame.index, line: frame.line, pointer: '', message: frame.error, rule: 'schema' },
          ];
        else if (check) found = check.push(frame.value, { index: frame.index, line: frame.line });
        else {
          const v = this.binding.validators[options.itemType ?? ''];
          found =
            v && !v(frame.value)
              ? describeErrors(v.errors).map((i) => ({
                  index: frame.index,
                  pointer: i.pointer,
                  message: i.message,
                  rule: 'schema',
                  type: options.itemType ?? '',
                }))
              : [];
        }
        issues.push(...found);
        if (found.some((x) => x.rule === 'schema')) this.messagesFailed++;
        for (const i of found.filter((x) => x.rule === 'schema'))
          this.wireFailures.push(
            `${label}: event ${i.index}: ${i.pointer || '(event)'}: ${i.message} (${i.type ?? 'item'})`,
          );
        if (items.length >= MAX_STREAM_ITEMS || (frame.ok && options.until?.(frame.value))) break;
      }
    } catch (error) {
      throw new CheckFailure(`${label}: the stream broke after ${items.length} items: ${messageOf(error)}`);
    }
    if (check && !options.until) issues.push(...check.end());
    return { ...exchange, items, issues };
  }

  /** Sends a request; `abort` abandons it (and its body) when a wait for it times out. */
  private async send(
    method: string,
    path: string,
    options: CallOptions,
    label: string,
  ): Promise<{ response: Response; abort: AbortController }> {
    const headers = new Headers(options.headers);
    let body: BodyInit | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    // `./` keeps a first segment with a colon (`/message:send`) a path, not a URL scheme.
    const url = new URL(
      `./${path.replace(/^\//, '')}`,
      this.target.baseUrl.endsWith('/') ? this.target.baseUrl : `${this.target.baseUrl}/`,
    );
    const abort = new AbortController();
    const request = new Request(url, {
      method,
      headers,
      signal: abort.signal,
      ...(body === undefined ? {} : { body }),
    });
    try {
      const response = await promiseWithTimeout(
        Promise.resolve(this.target.fetch(request)),
        this.timeoutMs,
        label,
        abort,
      );
      return { response, abort };
    } catch (error) {
      if (error instanceof CheckFailure) throw error;
      throw new CheckFailure(`${label}: no answer: ${describeFetchError(error)}`);
    }
  }
}

async function readText(
  response: Response,
  timeoutMs: number,
  label: string,
  abort: AbortController,
): Promise<string> {
  return promiseWithTimeout(boundedText(response, label, abort), timeoutMs, label, abort);
}

/**
 * An answer's body as text, read to at most MAX_BODY_BYTES once decompressed: a body that inflates without end (a gzip
 * bomb) fails the check that asked for it instead of filling the heap.
 */
async function boundedText(response: Response, label: string, abort: AbortController): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      bytes += value.byteLength;
      if (bytes > MAX_BODY_BYTES) {
        const error = new CheckFailure(
          `${label}: the answer's body is larger than ${MAX_BODY_BYTES} bytes (once decompressed): not read further`,
        );
        abort.abort(error);
        throw error;
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    throw new CheckFailure(`${label}: the answer broke off: ${describeFetchError(error)}`);
  } finally {
    reader.releaseLock();
  }
}

/**
 * A promise that rejects with a CheckFailure after `ms`; its timer is cleared either way. With `abort`, the request
 * waited for is aborted too, so an agent that never answers does not keep its connection (and the process) alive.
 */
export function promiseWithTimeout<T>(
  promise: Promise<T>,
  ms: number,
  label: string,
  abort?: AbortController,
): Promise<T> {
  return withTimeout(promise, ms, () => {
    const error = new CheckFailure(`${label}: no answer within ${ms} ms`);
    abort?.abort(error);
    return error;
  });
}

/** Reads a body chunk by chunk, failing when one chunk takes longer than the timeout. */
export async function* readWithin(
  body: ReadableStream<Uint8Array>,
  ms: number,
  label: string,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    while (true) {
      const next = await promiseWithTimeout(reader.read(), ms, `${label} (stream)`);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
