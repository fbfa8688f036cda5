// What `@agentproto/agentscope/<version>` exports beyond the generated code. Each version's entry point
// (src/generated/<version>/entry.ts, generated from the manifest's `entry`) re-exports this module and binds
// `forVersion(version)`: the agent factory, the client and the stream check, typed with that version's request,
// event and response types.
import type { Hono } from 'hono';
import { type AgentDefinition, createAgentScopeApp } from './agent/create-agent.js';
import { type AgentScopeClientOptions, type AgentScopeRun, processRequest } from './client/process-client.js';
import type { Schemas } from './generated/versions.js';
import { AgentScopeStreamCheck } from './stream/stream-rules.js';
import type { AgentScopeVersion } from './version-traits.js';

export type { AgentDefinition, RunContext } from './agent/create-agent.js';
export {
  type AgentScopeClientOptions,
  AgentScopeError,
  type AgentScopeRun,
} from './client/process-client.js';
export {
  SessionHistory,
  type SessionHistoryOptions,
  type SessionMessage,
} from './session/session-history.js';
export type { AgentOutput } from './stream/response-stream.js';
export { STREAM_RULES, type StreamOutcome, type StreamRule } from './stream/stream-rules.js';
export type { AgentScopeTraits, AgentScopeVersion } from './version-traits.js';

/** A client for one AgentScope version: `process(request)` streams typed events and assembles the response. */
export interface AgentScopeClient<Req, Event, Response> {
  /** Runs the agent on a request: iterate the result for events, await `.response` for the final response. */
  process(request: Req, init?: { signal?: AbortSignal }): AgentScopeRun<Event, Response>;
}

/**
 * The factories of one AgentScope version, typed with that version's request, event and response types (looked up
 * in the generated schema types by version, so every version the manifest lists has them).
 */
export function forVersion<V extends AgentScopeVersion>(version: V) {
  type Req = Schemas[V]['AgentRequest'];
  type Event = Schemas[V]['StreamEvent'];
  type Response = Schemas[V]['AgentResponse'];
  return {
    /** Builds the Hono app of an agent of this version from its `run` function. */
    createAgent: (agent: AgentDefinition<Req>): Hono => createAgentScopeApp(version, agent),
    /** A stream check for this version: feed it events, then call `end()`. */
    createStreamCheck: (): AgentScopeStreamCheck => new AgentScopeStreamCheck(version),
    /** A client for an agent of this version. */
    createClient: (options: AgentScopeClientOptions = {}): AgentScopeClient<Req, Event, Response> => ({
      process: (request, init = {}) =>
        processRequest<Event, Response>(version, options, request, init.signal),
    }),
  };
}
