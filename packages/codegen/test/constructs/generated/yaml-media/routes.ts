import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

/** What the `getCard` handler receives, validated. */
export interface GetCardInput {
  params: Record<string, never>;
  query: Record<string, never>;
  body: undefined;
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `getCard` handler may answer: a declared status and its body. */
export type GetCardResult =
  | { status: 200; body: components['schemas']["Card"]; contentType?: "application/json"; headers?: Record<string, string> }
  | { status: 200; body: components['schemas']["Card"]; contentType: "application/yaml"; headers?: Record<string, string> };

/** What the `readLines` handler receives, validated. */
export interface ReadLinesInput {
  params: Record<string, never>;
  query: Record<string, never>;
  body: undefined;
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `readLines` handler may answer: a declared status and its body. */
export type ReadLinesResult =
  | { status: 200; body: AsyncIterable<unknown>; contentType?: "application/x-ndjson"; headers?: Record<string, string> };

/** The handlers of an Construct yaml-media 1 agent, one per operation, keyed by operationId. */
export interface YamlMediaHandlers {
  /** `GET /` */
  getCard(input: GetCardInput, c: Context): GetCardResult | Promise<GetCardResult>;
  /** `POST /lines` */
  readLines(input: ReadLinesInput, c: Context): ReadLinesResult | Promise<ReadLinesResult>;
}

const operationSpecs: readonly OperationSpec[] = [
  {
    operationId: "getCard",
    method: "GET",
    path: "/",
    pathParams: parameters.getCard_path,
    query: parameters.getCard_query,
    responses: {
      "200": [{ mediaType: "application/json", kind: "json", validate: messages.Card, type: "Card" }, { mediaType: "application/yaml", kind: "yaml", validate: messages.Card, type: "Card" }],
    },
  },
  {
    operationId: "readLines",
    method: "POST",
    path: "/lines",
    pathParams: parameters.readLines_path,
    query: parameters.readLines_query,
    responses: {
      "200": [{ mediaType: "application/x-ndjson", kind: "stream", validate: messages.readLines_response200_item_0, framing: "ndjson" }],
    },
  },
];

/**
 * Builds a Hono app serving every Construct yaml-media 1 operation with the given handlers.
 * Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development
 * each handler's answer is checked against the declared responses.
 */
export function createYamlMediaApp(handlers: YamlMediaHandlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
