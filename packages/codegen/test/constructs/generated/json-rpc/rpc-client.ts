import { type RpcCallOptions, RpcCaller, type RpcClientOptions } from '@agentproto/runtime';
import type { AddParams, AddResult, NotifyPingParams, NotifyPingResult, WatchParams, WatchResult } from './rpc-types.js';

/**
 * A typed client for an Construct json-rpc 1 agent's JSON-RPC endpoint. `options.url` is the endpoint; pass
 * `options.fetch` to call an app in memory.
 */
export function createJsonRpcRpcClient(options: RpcClientOptions) {
  const rpc = new RpcCaller(options);
  return {
    /** The underlying caller, for methods by name. */
    rpc,
    /**
     * Adds two numbers. (`add`).
     * Rejects with a JsonRpcError when the agent answers with an error.
     */
    add: (params: AddParams, options?: RpcCallOptions) => rpc.call<AddResult>("add", params, options),
    /**
     * `notify/ping`.
     * Rejects with a JsonRpcError when the agent answers with an error.
     */
    "notify/ping": (params?: NotifyPingParams, options?: RpcCallOptions) => rpc.call<NotifyPingResult>("notify/ping", params ?? {}, options),
    /**
     * Streams ticks. (`watch`).
     * Iterate the answer for each item; a JsonRpcError is thrown for an error.
     */
    watch: (params?: WatchParams, options?: RpcCallOptions) => rpc.stream<WatchResult>("watch", params ?? {}, "sse", options),
  };
}

/** The client returned by `createJsonRpcRpcClient`. */
export type JsonRpcRpcClient = ReturnType<typeof createJsonRpcRpcClient>;

export type { JsonRpcRpcMethods } from './rpc-types.js';
