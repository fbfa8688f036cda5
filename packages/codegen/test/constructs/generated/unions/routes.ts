import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

/** What the `addShape` handler receives, validated. */
export interface AddShapeInput {
  params: Record<string, never>;
  query: Record<string, never>;
  body: components['schemas']["Shape"];
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `addShape` handler may answer: a declared status and its body. */
export type AddShapeResult =
  | { status: 200; body: components['schemas']["Shape"]; contentType?: "application/json"; headers?: Record<string, string> };

/** The handlers of an Construct unions 1 agent, one per operation, keyed by operationId. */
export interface UnionsHandlers {
  /** `POST /shapes` */
  addShape(input: AddShapeInput, c: Context): AddShapeResult | Promise<AddShapeResult>;
}

const operationSpecs: readonly OperationSpec[] = [
  {
    operationId: "addShape",
    method: "POST",
    path: "/shapes",
    pathParams: parameters.addShape_path,
    query: parameters.addShape_query,
    body: { required: true, contents: [{ mediaType: "application/json", kind: "json", validate: messages.Shape, type: "Shape" }] },
    responses: {
      "200": [{ mediaType: "application/json", kind: "json", validate: messages.Shape, type: "Shape" }],
    },
  },
];

/**
 * Builds a Hono app serving every Construct unions 1 operation with the given handlers.
 * Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development
 * each handler's answer is checked against the declared responses.
 */
export function createUnionsApp(handlers: UnionsHandlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
