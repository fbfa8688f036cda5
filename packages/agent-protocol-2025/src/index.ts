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
  type AgentRuntimeOptions,
  defaultInstance,
  defineOperation,
  type OperationContext,
  type OperationDefinition,
  RequestRefused,
  type RunSummary,
  type Submitted,
} from './runs/agent-runtime.js';

import { EventStreamCheck } from './runs/event-rules.js';

export { EVENT_RULES, type EventRule, EventStreamCheck } from './runs/event-rules.js';
export {
  type ControlMessage,
  type MemoryMessage,
  type RequestRecord,
  type RequestState,
  type RunRecord,
  RunRecords,
} from './runs/run-store.js';
export { type AgentServerOptions, createAgentServer } from './server/create-server.js';

/** A check of a stream of events (a request's or a run's) against AgentEvent and EVENT_RULES. */
export function createStreamCheck(): EventStreamCheck {
  return new EventStreamCheck();
}

/** This module's protocol version. */
export const VERSION = 'draft-2025-02';
