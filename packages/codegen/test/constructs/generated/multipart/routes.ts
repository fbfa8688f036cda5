import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

/** What the `uploadFile` handler receives, validated. */
export interface UploadFileInput {
  params: Record<string, never>;
  query: Record<string, never>;
  body: components['schemas']["Upload"];
  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

/** What the `uploadFile` handler may answer: a declared status and its body. */
export type UploadFileResult =
  | { status: 200; body: Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | string; contentType?: "application/octet-stream"; headers?: Record<string, string> };

/** The handlers of an Construct multipart 1 agent, one per operation, keyed by operationId. */
export interface MultipartHandlers {
  /** `POST /files` */
  uploadFile(input: UploadFileInput, c: Context): UploadFileResult | Promise<UploadFileResult>;
}

const operationSpecs: readonly OperationSpec[] = [
  {
    operationId: "uploadFile",
    method: "POST",
    path: "/files",
    pathParams: parameters.uploadFile_path,
    query: parameters.uploadFile_query,
    body: { required: true, contents: [{ mediaType: "multipart/form-data", kind: "form", validate: messages.Upload, type: "Upload", fileFields: ["file"] }] },
    responses: {
      "200": [{ mediaType: "application/octet-stream", kind: "binary" }],
    },
  },
];

/**
 * Builds a Hono app serving every Construct multipart 1 operation with the given handlers.
 * Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development
 * each handler's answer is checked against the declared responses.
 */
export function createMultipartApp(handlers: MultipartHandlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
