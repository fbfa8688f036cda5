import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

/** What the `streamTicks` handler receives, validated. */
export interface StreamTicksInput {
  params: Record<string, never>;
  query: Record<string, never>;
  body: undefined;
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `streamTicks` handler may answer: a declared status and its body. */
export type StreamTicksResult =
  | { status: 200; body: AsyncIterable<components['schemas']["Tick"]>; contentType?: "text/event-stream"; headers?: Record<string, string> };

/** The handlers of an Construct sse-items 1 agent, one per operation, keyed by operationId. */
export interface SseItemsHandlers {
  /** `GET /ticks` */
  streamTicks(input: StreamTicksInput, c: Context): StreamTicksResult | Promise<StreamTicksResult>;
}

const operationSpecs: readonly OperationSpec[] = [
  {
    operationId: "streamTicks",
    method: "GET",
    path: "/ticks",
    pathParams: parameters.streamTicks_path,
    query: parameters.streamTicks_query,
    responses: {
      "200": [{ mediaType: "text/event-stream", kind: "stream", validate: messages.Tick, type: "Tick", framing: "sse", sseIdField: "seq" }],
    },
  },
];

/**
 * Builds a Hono app serving every Construct sse-items 1 operation with the given handlers.
 * Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development
 * each handler's answer is checked against the declared responses.
 */
export function createSseItemsApp(handlers: SseItemsHandlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
