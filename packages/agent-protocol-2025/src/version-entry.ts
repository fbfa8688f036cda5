// What `@agentproto/agent-protocol-2025/<version>` exports beyond the generated code. Each version's entry point
// (src/generated/<version>/entry.ts, generated from the manifest's `entry`) re-exports this module and binds
// `forVersion(version)`: the agent server and the stream check, which judge requests, answers and events by that
// version's own schemas. The run runtime is written once and is the same module in every entry point.
import type { Hono } from 'hono';
import type { Version } from './generated/versions.js';
import { EventStreamCheck } from './runs/event-rules.js';
import { type AgentServerOptions, createAgentServer } from './server/create-server.js';

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
export { EVENT_RULES, type EventRule, EventStreamCheck } from './runs/event-rules.js';
export {
  type ControlMessage,
  type MemoryMessage,
  type RequestRecord,
  type RequestState,
  type RunRecord,
  RunRecords,
} from './runs/run-store.js';
export type { AgentServerOptions } from './server/create-server.js';

/** What the entry point of `version` binds to it. */
export function forVersion(version: Version) {
  return {
    /** Serves agents of this version: requests and answers are checked against its schemas. */
    createAgentServer: (options: AgentServerOptions): Hono => createAgentServer(options, version),
    /** A check of a stream of events (a request's or a run's) against this version's AgentEvent and EVENT_RULES. */
    createStreamCheck: (): EventStreamCheck => new EventStreamCheck(version),
  };
}
