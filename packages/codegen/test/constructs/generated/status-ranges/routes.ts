import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec, type StatusOf } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

/** What the `placeOrder` handler receives, validated. */
export interface PlaceOrderInput {
  params: Record<string, never>;
  query: Record<string, never>;
  body: undefined;
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `placeOrder` handler may answer: a declared status and its body. */
export type PlaceOrderResult =
  | { status: 200; body: components['schemas']["Receipt"]; contentType?: "application/json"; headers?: Record<string, string> }
  | { status: Exclude<StatusOf<"2XX">, 200>; body: components['schemas']["Receipt"]; contentType?: "application/json"; headers?: Record<string, string> }
  | { status: Exclude<StatusOf<"4XX">, 200>; body: components['schemas']["Failure"]; contentType?: "application/json"; headers?: Record<string, string> }
  | { status: Exclude<StatusOf<"default">, 200>; body: operations["placeOrder"]['responses']["default"]['content']["application/json"]; contentType?: "application/json"; headers?: Record<string, string> };

/** The handlers of an Construct status-ranges 1 agent, one per operation, keyed by operationId. */
export interface StatusRangesHandlers {
  /** `POST /orders` */
  placeOrder(input: PlaceOrderInput, c: Context): PlaceOrderResult | Promise<PlaceOrderResult>;
}

const operationSpecs: readonly OperationSpec[] = [
  {
    operationId: "placeOrder",
    method: "POST",
    path: "/orders",
    pathParams: parameters.placeOrder_path,
    query: parameters.placeOrder_query,
    responses: {
      "200": [{ mediaType: "application/json", kind: "json", validate: messages.Receipt, type: "Receipt" }],
      "2XX": [{ mediaType: "application/json", kind: "json", validate: messages.Receipt, type: "Receipt" }],
      "4XX": [{ mediaType: "application/json", kind: "json", validate: messages.Failure, type: "Failure" }],
      "default": [{ mediaType: "application/json", kind: "json", validate: messages.placeOrder_responsedefault_0 }],
    },
  },
];

/**
 * Builds a Hono app serving every Construct status-ranges 1 operation with the given handlers.
 * Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development
 * each handler's answer is checked against the declared responses.
 */
export function createStatusRangesApp(handlers: StatusRangesHandlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
