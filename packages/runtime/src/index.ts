/**
 * `@agentproto/runtime`: what every generated server and client shares. Request reading with limits, the operation
 * app (validation, status codes, problem bodies), stream framing, bounded stores, and everything of
 * `@agentproto/runtime/contract` (checking messages without the HTTP stack).
 */
export { parseJsonWithin } from './body/parse-json.js';
export {
  type ProtoNameClash,
  type ProtoNameNode,
  type ProtoNames,
  readProtoNames,
  readProtoQuery,
} from './body/proto-names.js';
export { type BodyResult, type BodySpec, readBody } from './body/read-body.js';
export { readLimitedBytes } from './body/read-bytes.js';
export { findShapeProblem, type ShapeProblem } from './body/value-shape.js';
export { type ClientConnectionOptions, generatedClientOptions } from './client-options.js';
export * from './contract.js';
export { toFormData } from './form-data.js';
export { contentDisposition, invalidHeader, parseDecimalInteger } from './http/headers.js';
export { type Fetcher, withoutPathPrefix } from './http/path-prefix.js';
export { declaredResponse, type StatusClasses, type StatusOf } from './http/status.js';
export {
  createJsonRpcApp,
  createJsonRpcDispatcher,
  DEFAULT_MAX_BATCH,
  type RpcAppOptions,
  type RpcContext,
  type RpcDispatcher,
  type RpcDispatcherOptions,
  type RpcHandler,
  type RpcId,
  type RpcMethodSpec,
} from './jsonrpc/rpc-app.js';
export { RpcCaller, type RpcCallOptions, type RpcClientOptions } from './jsonrpc/rpc-client.js';
export { JsonRpcError, RPC_ERROR_CODES, type RpcErrorObject, type RpcFailure } from './jsonrpc/rpc-error.js';
export { DEFAULT_LIMITS, type RequestLimits, resolveLimits } from './limits.js';
export {
  type BlockedAddressKind,
  blockedAddressKind,
  checkOutboundUrl,
  guardedLookup,
  type HostResolver,
  isAllowedHost,
  type OutboundPolicy,
  OutboundRefusedError,
} from './net/outbound-policy.js';
export {
  type OutboundAgentOptions,
  type OutboundAgents,
  type OutboundAnswer,
  type OutboundPost,
  type OutboundTarget,
  outboundAgents,
  postOutbound,
} from './net/outbound-request.js';
export {
  type AppOptions,
  type ContentSpec,
  createOperationApp,
  type HandlerInput,
  type HandlerResult,
  honoPath,
  type OperationSpec,
} from './operation-app.js';
export { rpcAnswerBody } from './pipeline/rpc-answer.js';
export { pipeline, runSteps, type Step, type StepAnswer } from './pipeline/step.js';
export {
  PROBLEM_MEDIA_TYPE,
  type Problem,
  problem,
  problemResponse,
  type RequestLocation,
} from './problem.js';
export {
  parseServeArgs,
  runServeScript,
  SERVE_USAGE_EXIT_CODE,
  type ServeArgs,
  ServeArgsError,
  type ServeArgsSpec,
  type ServeStringOption,
} from './serve-args.js';
export {
  closeLocal,
  DEFAULT_LINGER,
  type LingerLimits,
  type LocalServer,
  lingerOnClose,
  serveLocal,
} from './serve-local.js';
export {
  type AgentStore,
  type AppendGuard,
  DEFAULT_RETAIN_FINISHED_MS,
  followLog,
  type IndexKeys,
  type IndexRange,
  type ListOptions,
  type LogEntry,
  type LogGuard,
  type LogListener,
  type StoredItem,
  type StoredRecord,
} from './stores/agent-store.js';
export { DEFAULT_MEMORY_LIMITS, MemoryStore, type MemoryStoreLimits } from './stores/memory-store.js';
export { openStore, STORE_SPEC_HELP, StoreSpecError } from './stores/open-store.js';
export { defaultInstance, type OpenEntry, OpenWork } from './stores/open-work.js';
export { RetainedMap, type Retention } from './stores/retained-map.js';
export { encodeItem, type WriteStreamOptions, writeStream } from './streams/write-stream.js';
