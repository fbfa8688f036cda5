export * from './client.js';
/** Types of the Construct json-rpc 1 messages and HTTP surface. */
export type * from './openapi.js';
export * from './paths.js';
export * from './routes.js';
export * from './rpc.js';
export * from './rpc-client.js';
/** The JSON-RPC surface's own types, from json-schema-to-typescript: each method's params and result, and the method map. */
export type { AddParams, AddResult, JsonRpcRpcMethods, NotifyPingParams, NotifyPingResult, WatchParams, WatchResult } from './rpc-types.js';
/** One standalone validator per public type: `validators.Task(value)` is a type guard; every error stays on it. */
export * as validators from './validators.js';
