// The write step of an HTTP operation: the checked answer sent as the media type the response check chose — JSON,
// YAML, bytes, nothing for a status declared without content, or a stream of items (write-stream.ts).
import { stringify as stringifyYaml } from 'yaml';
import type { WriteStreamOptions } from '../streams/write-stream.js';
import { isObjectLike } from '../unknown-values.js';
import { unsendable } from './check-response.js';
import type { OperationState } from './operation-state.js';
import type { Step } from './step.js';
import { sendStream } from './write-stream.js';

/**
 * Answers with `state.result` as checked (`state.content`, `state.headers`, `state.itemCheck`); a stream that stops
 * early ends with `streamErrorItem`'s item, when the protocol has one.
 */
export function writeResponse(
  operationId: string,
  onError: (error: unknown, where: string) => void,
  nodeStreams: boolean,
  streamErrorItem?: (reason: string) => unknown,
): Step<OperationState> {
  return (c, state) => {
    // sound: checkResponse, the step before, answered every request whose handler left no answer here.
    const result = state.result as NonNullable<OperationState['result']>;
    const { status, body } = result;
    const { content, headers } = state;
    try {
      if (!headers) return new Response(null, { status, headers: new Headers(result.headers) });
      // sound: Response takes any value for a body, one that is not bytes, a Blob or a stream by its string form,
      // which is what a binary answer of another value has always sent (HandlerResult leaves a body's type open).
      if (content?.kind === 'binary') return new Response(body as BodyInit, { status, headers });
      if (content?.kind === 'stream') {
        const idField = content.sseIdField;
        const itemCheck = state.itemCheck;
        const options: WriteStreamOptions = {
          ...(state.input ? { abort: state.input.controller() } : {}),
          ...(idField
            ? {
                idOf: (item: unknown) => (isObjectLike(item) ? item[idField] : undefined),
              }
            : {}),
          onError: (error) => onError(error, operationId),
          ...(itemCheck ? { check: itemCheck } : {}),
          ...(streamErrorItem ? { endWith: streamErrorItem } : {}),
        };
        // Proxies must not buffer or cache an event stream.
        if (content.framing === 'sse' && headers['cache-control'] === undefined)
          headers['cache-control'] = 'no-cache';
        // sound: checkResponse refused a stream media type for a body that is not an async iterable.
        const items = body as AsyncIterable<unknown>;
        const framing = content.framing ?? 'ndjson';
        return sendStream(c, { status, headers, items, framing, options }, nodeStreams);
      }
      if (body === undefined) return new Response(null, { status, headers });
      const text = content?.kind === 'yaml' ? stringifyYaml(body) : JSON.stringify(body);
      return new Response(text, { status, headers });
    } catch (error) {
      return unsendable(error, operationId, onError);
    }
  };
}
