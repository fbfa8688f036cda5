// The response check of an HTTP operation: the handler's answer held against the declared responses. It picks the
// media type to send (the handler's, else the one Accept prefers among those that fit the body), and with `validate`
// refuses, as a 500 problem told to `onError`, an undeclared status or media type, a body that breaks its schema, a
// stream without items; in every mode, a header the server could not send. A body or stream item that breaks its
// schema is told once per distinct fault (response-faults.ts), in one line.
import { accepts } from 'hono/accepts';
import { invalidHeader } from '../http/headers.js';
import { declaredResponse } from '../http/status.js';
import type { ContentSpec, OperationSpec } from '../operation-app.js';
import { problem, problemResponse } from '../problem.js';
import { check, type ValidationIssue } from '../validation.js';
import type { OperationState } from './operation-state.js';
import { ResponseFaults } from './response-faults.js';
import type { Step } from './step.js';

/** Checks `state.result` into `state.content`, `state.headers` and, for a checked stream, `state.itemCheck`. */
export function checkResponse(
  spec: OperationSpec,
  validate: boolean,
  onError: (error: unknown, where: string) => void,
  faults: ResponseFaults = new ResponseFaults(onError),
): Step<OperationState> {
  const responses = new ResponseTable(spec.responses);
  const invalid = (status: number, detail: string, issues?: readonly ValidationIssue[]): Response => {
    // A body that breaks its schema has been reported by `faults`.
    if (!issues) onError(new Error(`${spec.operationId} answered ${status}: ${detail}`), spec.operationId);
    return problemResponse(
      problem(
        500,
        'invalid-response',
        `the agent's answer breaks the protocol: ${detail}`,
        issues && { location: 'body', list: issues },
      ),
    );
  };
  return (c, state) => {
    try {
      // sound: dispatch, the step before, left the handler's answer here; a handler outside the types that answered
      // nothing fails on `.status` below, inside this try, and gets the unsendable answer.
      const result = state.result as NonNullable<OperationState['result']>;
      const table = responses.get(result.status);
      const declared = table?.all;
      // Without a media type from the handler, the choice is among those that fit the body: a stream for an async
      // iterable, any other for a value. Accept alone must not turn a JSON answer into an event stream.
      const streamed = isAsyncIterable(result.body);
      const candidates = streamed ? table?.forStream : table?.forValue;
      let content = result.contentType
        ? declared?.find((d) => d.mediaType === result.contentType)
        : candidates?.[0];
      if (!result.contentType && candidates && candidates.length > 1 && c.req.header('accept')) {
        const supports = candidates.map((d) => d.mediaType);
        const chosen = accepts(c, { header: 'Accept', supports, default: supports[0] ?? '' });
        content = candidates.find((d) => d.mediaType === chosen) ?? content;
      }
      // A status declared without content (202, 204) answers with no body, and with the handler's headers alone.
      if (declared?.length === 0 && result.body === undefined) {
        for (const k in result.headers) {
          const bad = invalidHeader(k, result.headers?.[k]);
          if (bad) return invalid(result.status, bad);
        }
        return undefined;
      }
      if (validate && !content)
        return invalid(result.status, `status ${result.status} with this media type is not declared`);
      // Plain header objects: the Node adapter answers from them without building a Headers object.
      const headers: Record<string, string> = { 'content-type': content?.mediaType ?? 'application/json' };
      for (const k in result.headers) {
        const v = result.headers?.[k];
        // The server adapter would throw on such a header after the handler ran, and answer with its own plain 500.
        const bad = invalidHeader(k, v);
        if (bad) return invalid(result.status, bad);
        // Always a string by now: invalidHeader refuses every other value.
        if (typeof v === 'string') headers[k.toLowerCase()] = v;
      }
      state.content = content;
      state.headers = headers;
      if (content?.kind === 'binary') return undefined;
      if (content?.kind === 'stream') {
        if (!streamed)
          return invalid(result.status, 'a streamed answer needs an async iterable of items as its body');
        const itemCheck = content.validate;
        const type = content.type ?? 'item';
        if (validate && itemCheck)
          state.itemCheck = (item, index) => {
            const issues = check(itemCheck, item);
            if (issues.length === 0) return undefined;
            return faults.report(spec.operationId, `stream item ${index + 1}`, type, issues, item);
          };
        return undefined;
      }
      if (validate && content?.validate) {
        const issues = check(content.validate, result.body);
        if (issues.length > 0) {
          const type = content.type ?? 'body';
          faults.report(spec.operationId, `${result.status} body`, type, issues, result.body);
          return invalid(result.status, 'the body breaks its schema', issues);
        }
      }
      return undefined;
    } catch (error) {
      return unsendable(error, spec.operationId, onError);
    }
  };
}

/** An answer that cannot be checked or written (no answer at all, a value JSON cannot hold): the agent's fault. */
export function unsendable(
  error: unknown,
  operationId: string,
  onError: (error: unknown, where: string) => void,
): Response {
  onError(error, operationId);
  return problemResponse(problem(500, 'response-failed', 'the agent gave an answer that cannot be sent'));
}

/** Whether a value is an async iterable: the body of a streamed answer. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}

/**
 * An operation's declared responses by status, worked out once per status: the declared media types, and those fit
 * for a streamed body and for a value (a stream for an async iterable, any other for a value).
 */
class ResponseTable {
  readonly #byStatus = new Map<number, Declared | undefined>();
  constructor(private readonly responses: Readonly<Record<string, readonly ContentSpec[]>>) {}
  get(status: number): Declared | undefined {
    if (this.#byStatus.has(status)) return this.#byStatus.get(status);
    const all = declaredResponse(this.responses, status);
    const fit = (streamed: boolean) => {
      const fitting = all?.filter((d) => (d.kind === 'stream') === streamed);
      return fitting && fitting.length > 0 ? fitting : all;
    };
    const declared = all && { all, forStream: fit(true) ?? all, forValue: fit(false) ?? all };
    // Statuses are numbers a handler chose; the table holds at most the 500 or so a status can be.
    if (Number.isInteger(status) && status >= 100 && status <= 599) this.#byStatus.set(status, declared);
    return declared;
  }
}

interface Declared {
  all: readonly ContentSpec[];
  forStream: readonly ContentSpec[];
  forValue: readonly ContentSpec[];
}
