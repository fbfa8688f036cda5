/**
 * The result of `add`.
 * 
 * This interface was referenced by `AllTypes`'s JSON-Schema
 * via the `definition` "AddResult".
 */
export type AddResult = number
/**
 * The result of `notify/ping`.
 * 
 * This interface was referenced by `AllTypes`'s JSON-Schema
 * via the `definition` "NotifyPingResult".
 */
export type NotifyPingResult = "pong"

/**
 * One event of a stream.
 * 
 * This interface was referenced by `AllTypes`'s JSON-Schema
 * via the `definition` "Tick".
 */
export interface Tick {
seq: number
/**
 * Anything at all.
 */
note?: unknown
[k: string]: unknown | undefined
}
/**
 * The params of `add`, by name.
 * 
 * This interface was referenced by `AllTypes`'s JSON-Schema
 * via the `definition` "AddParams".
 */
export interface AddParams {
a: number
b?: number
[k: string]: unknown | undefined
}
/**
 * The params of `notify/ping`, by name.
 * 
 * This interface was referenced by `AllTypes`'s JSON-Schema
 * via the `definition` "NotifyPingParams".
 */
export interface NotifyPingParams {
[k: string]: unknown | undefined
}
/**
 * The params of `watch`, by name.
 * 
 * This interface was referenced by `AllTypes`'s JSON-Schema
 * via the `definition` "WatchParams".
 */
export interface WatchParams {
from?: number
[k: string]: unknown | undefined
}

/** The result of `watch` (one item of its stream). */
export type WatchResult = Tick;

/** The methods of the Construct json-rpc 1 JSON-RPC surface: each one's params, its result (for a streaming method, one item) and whether it streams. */
export interface JsonRpcRpcMethods {
  add: { params: AddParams; result: AddResult; stream: false };
  "notify/ping": { params: NotifyPingParams; result: NotifyPingResult; stream: false };
  watch: { params: WatchParams; result: WatchResult; stream: true };
}
