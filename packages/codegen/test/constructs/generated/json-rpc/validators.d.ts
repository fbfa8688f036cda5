import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Tick (https://agentproto.dev/schemas/json-rpc/1/Tick.schema.json). */
export declare const Tick: Validator<components['schemas']["Tick"]>;
/** Validates the params (or an inline result) of a method of the JSON-RPC surface. */
export declare const rpc_add_params: Validator;
/** Validates the params (or an inline result) of a method of the JSON-RPC surface. */
export declare const rpc_add_result: Validator;
/** Validates the params (or an inline result) of a method of the JSON-RPC surface. */
export declare const rpc_notify_ping_params: Validator;
/** Validates the params (or an inline result) of a method of the JSON-RPC surface. */
export declare const rpc_notify_ping_result: Validator;
/** Validates the params (or an inline result) of a method of the JSON-RPC surface. */
export declare const rpc_watch_params: Validator;
