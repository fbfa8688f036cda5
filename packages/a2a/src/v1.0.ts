/**
 * A2A 1.0: the generated types, validators, Hono stubs and clients of the HTTP+JSON binding and the JSON-RPC binding,
 * the task manager that runs an agent's turns for both, A2A's errors in each binding's form, and the server that puts
 * them together.
 */

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
  DEFAULT_TASK_LIMITS,
  type TaskLimits,
  TaskManager,
  type TaskManagerOptions,
} from './agent/task-manager.js';
export {
  A2A_ERROR_DOMAIN,
  A2A_ERRORS,
  A2aError,
  type A2aErrorReason,
  problemToRest,
  rpcErrorData,
} from './errors/a2a-error.js';
export * from './generated/1.0/index.js';
export { type A2aServer, type A2aServerOptions, createA2aServer } from './server/create-a2a-server.js';
export {
  A2A_PROTOCOL_VERSION,
  type A2aCall,
  type A2aOperations,
  checkVersion,
  type ServeA2aOptions,
  serveA2a,
} from './server/serve-a2a.js';
export { A2aStreamCheck, STREAM_RULES, type StreamRule } from './stream/stream-rules.js';

/** This module's protocol version. */
export const VERSION = '1.0';
