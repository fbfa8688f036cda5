import {
  createJsonRpcApp,
  createJsonRpcDispatcher,
  type RpcAppOptions,
  type RpcContext,
  type RpcDispatcher,
  type RpcDispatcherOptions,
  type RpcHandler,
  type RpcMethodSpec,
} from '@agentproto/runtime';
import type { Hono } from 'hono';
import type { AddParams, AddResult, NotifyPingParams, NotifyPingResult, WatchParams, WatchResult } from './rpc-types.js';
import * as messages from './validators.js';

/**
 * The handlers of an Construct json-rpc 1 agent's JSON-RPC surface, one per method, keyed by method name. A handler
 * throws a JsonRpcError to answer with an error.
 */
export interface JsonRpcRpcHandlers {
  /** Adds two numbers. (`add`) */
  add(params: AddParams, context: RpcContext): AddResult | Promise<AddResult>;
  /** `notify/ping` */
  "notify/ping"(params: NotifyPingParams, context: RpcContext): NotifyPingResult | Promise<NotifyPingResult>;
  /** Streams ticks. (`watch`) */
  watch(params: WatchParams, context: RpcContext): AsyncIterable<WatchResult> | Promise<AsyncIterable<WatchResult>>;
}

const methodSpecs: readonly RpcMethodSpec[] = [
  { name: "add", paramStructure: "either", paramNames: ["a","b"], params: messages.rpc_add_params, result: messages.rpc_add_result },
  { name: "notify/ping", paramStructure: "either", paramNames: [], params: messages.rpc_notify_ping_params, result: messages.rpc_notify_ping_result },
  { name: "watch", paramStructure: "by-name", paramNames: ["from"], params: messages.rpc_watch_params, result: messages.Tick, resultType: "Tick", stream: "sse" },
];

/** The errors the Construct json-rpc 1 JSON-RPC surface declares, by name: `new JsonRpcError(code, message)`. */
export const JsonRpcRpcErrors = {
  TooBig: { code: -32050, message: "The sum is too big" },
} as const;

/**
 * Builds a Hono app serving the Construct json-rpc 1 JSON-RPC surface at one endpoint (`options.path`, default `/`).
 * The envelope and each method's params are validated before a handler runs (-32600, -32601, -32602); in development
 * every result is checked against its schema.
 */
export function createJsonRpcRpcApp(handlers: JsonRpcRpcHandlers, options?: RpcAppOptions): Hono {
  return createJsonRpcApp(methodSpecs, handlers as unknown as Record<string, RpcHandler>, options);
}

/**
 * Answers one Construct json-rpc 1 JSON-RPC body that the caller has already read and parsed, as the app of
 * `createJsonRpcRpcApp` answers it: for a transport that reads the body itself (one read, one parse, no second routing).
 * The caller keeps the body within its size and nesting limits.
 */
export function createJsonRpcRpcDispatcher(handlers: JsonRpcRpcHandlers, options?: RpcDispatcherOptions): RpcDispatcher {
  return createJsonRpcDispatcher(methodSpecs, handlers as unknown as Record<string, RpcHandler>, options);
}
