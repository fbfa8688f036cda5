// What each AgentScope version module exports, typed with that version's request, event and response types: the
// agent factory, the client, the stream check.
import type { Hono } from 'hono';
import { type AgentDefinition, createAgentScopeApp } from './agent/create-agent.js';
import { type AgentScopeClientOptions, type AgentScopeRun, processRequest } from './client/process-client.js';
import { AgentScopeStreamCheck, type AgentScopeVersion } from './stream/stream-rules.js';

/** A client for one AgentScope version: `process(request)` streams typed events and assembles the response. */
export interface AgentScopeClient<Req, Event, Response> {
  /** Runs the agent on a request: iterate the result for events, await `.response` for the final response. */
  process(request: Req, init?: { signal?: AbortSignal }): AgentScopeRun<Event, Response>;
}

/**
 * The factories of one AgentScope version, typed with that version's request, event and response types: what each
 * version module (`v0.1.ts`, `v1.1.ts`) exports.
 */
export function versionApi<Req extends { session_id?: string | null }, Event, Response>(
  version: AgentScopeVersion,
) {
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
