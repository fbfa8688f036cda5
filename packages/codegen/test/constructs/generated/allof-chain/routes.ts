import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

/** What the `listPeople` handler receives, validated. */
export interface ListPeopleInput {
  params: Record<string, never>;
  query: Record<string, never>;
  body: undefined;
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `listPeople` handler may answer: a declared status and its body. */
export type ListPeopleResult =
  | { status: 200; body: operations["listPeople"]['responses']["200"]['content']["application/json"]; contentType?: "application/json"; headers?: Record<string, string> };

/** The handlers of an Construct allof-chain 1 agent, one per operation, keyed by operationId. */
export interface AllofChainHandlers {
  /** `GET /people` */
  listPeople(input: ListPeopleInput, c: Context): ListPeopleResult | Promise<ListPeopleResult>;
}

const operationSpecs: readonly OperationSpec[] = [
  {
    operationId: "listPeople",
    method: "GET",
    path: "/people",
    pathParams: parameters.listPeople_path,
    query: parameters.listPeople_query,
    responses: {
      "200": [{ mediaType: "application/json", kind: "json", validate: messages.listPeople_response200_0 }],
    },
  },
];

/**
 * Builds a Hono app serving every Construct allof-chain 1 operation with the given handlers.
 * Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development
 * each handler's answer is checked against the declared responses.
 */
export function createAllofChainApp(handlers: AllofChainHandlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
