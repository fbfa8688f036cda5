// What `@agentproto/a2a/<version>` exports beyond the generated code. Each version's entry point
// (src/generated/<version>/entry.ts, generated from the manifest's `entry`) re-exports this module and binds
// `forVersion(version)`. The agent side (task manager, server, errors) is written once, against the latest version's
// types, and is the same module in every entry point.
import type { StreamCheck } from '@agentproto/runtime/contract';
import type { Version } from './generated/versions.js';
import { A2aStreamCheck } from './stream/stream-rules.js';

export {
  type A2aAgent,
  type AgentCardInput,
  type AgentEvent,
  type AgentTurn,
  type ArtifactEvent,
  INTERRUPTED_STATES,
  type ReplyEvent,
  type StateEvent,
  TERMINAL_STATES,
} from './agent/agent.js';
export {
  DEFAULT_SETTLE_RETRY,
  DEFAULT_TASK_LIMITS,
  type SettleRetry,
  type TaskLimits,
  TaskManager,
  type TaskManagerOptions,
} from './agent/task-manager.js';
export { type A2aConnection, connectA2a, jsonRpcInterfaces } from './client/connect.js';
export {
  A2A_ERROR_DOMAIN,
  A2A_ERRORS,
  A2aError,
  type A2aErrorReason,
  problemToRest,
  rpcErrorData,
} from './errors/a2a-error.js';
export { type A2aServer, type A2aServerOptions, createA2aServer } from './server/create-a2a-server.js';
export {
  A2A_PROTOCOL_VERSION,
  type A2aCall,
  type A2aOperations,
  checkVersion,
  requestedVersion,
  SERVED_VERSIONS,
  type ServeA2aOptions,
  serveA2a,
} from './server/serve-a2a.js';
export { A2aStreamCheck, STREAM_RULES, type StreamRule } from './stream/stream-rules.js';

/** What the entry point of `version` binds to it. */
export function forVersion(version: Version) {
  return {
    /** A check of one stream of this version: feed it events, then call `end()`. */
    createStreamCheck: (): StreamCheck => new A2aStreamCheck(version),
  };
}
