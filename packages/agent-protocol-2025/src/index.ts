/**
 * Agent Protocol, draft 2025 edition (`draft-2025-02`): the generated types, validators, Hono stubs and client, plus
 * the runtime that gives every agent the draft's semantics (runs with memory, event queues, resume and cancel) and
 * typed custom operations with TypeBox.
 */
export * from './generated/draft-2025-02/index.js';
export {
  AGENT_ENDPOINTS,
  type AgentDefinition,
  AgentRuntime,
  defineOperation,
  type OperationContext,
  type OperationDefinition,
  RequestRefused,
  type Submitted,
} from './runs/agent-runtime.js';
export {
  type MemoryMessage,
  MemoryRunStore,
  type RequestRecord,
  type RequestState,
  type RunRecord,
  type RunStore,
} from './runs/run-store.js';
export { type AgentServerOptions, createAgentServer } from './server/create-server.js';

/** This module's protocol version. */
export const VERSION = 'draft-2025-02';
