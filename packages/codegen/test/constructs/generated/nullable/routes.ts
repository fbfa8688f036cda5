import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

/** What the `getNote` handler receives, validated. */
export interface GetNoteInput {
  params: { id: Exclude<NonNullable<operations["getNote"]['parameters']['path']>["id"], undefined> };
  query: Record<string, never>;
  body: undefined;
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `getNote` handler may answer: a declared status and its body. */
export type GetNoteResult =
  | { status: 200; body: components['schemas']["Note"]; contentType?: "application/json"; headers?: Record<string, string> };

/** The handlers of an Construct nullable 1 agent, one per operation, keyed by operationId. */
export interface NullableHandlers {
  /** `GET /notes/{id}` */
  getNote(input: GetNoteInput, c: Context): GetNoteResult | Promise<GetNoteResult>;
}

const operationSpecs: readonly OperationSpec[] = [
  {
    operationId: "getNote",
    method: "GET",
    path: "/notes/{id}",
    pathParams: parameters.getNote_path,
    query: parameters.getNote_query,
    decimals: { path: { "id": "integer" } },
    responses: {
      "200": [{ mediaType: "application/json", kind: "json", validate: messages.Note, type: "Note" }],
    },
  },
];

/**
 * Builds a Hono app serving every Construct nullable 1 operation with the given handlers.
 * Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development
 * each handler's answer is checked against the declared responses.
 */
export function createNullableApp(handlers: NullableHandlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
