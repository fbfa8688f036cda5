/**
 * AgentScope Agent API 1.1: the generated types, validators, Hono stubs and client, plus the stream rules, the
 * streaming agent factory and the process client, bound to this version.
 */
import type { Hono } from 'hono';
import { type AgentDefinition, createAgentScopeApp } from './agent/create-agent.js';
import { type AgentScopeClientOptions, type AgentScopeRun, processRequest } from './client/process-client.js';
import type { AgentRequest, AgentResponse, StreamEvent } from './generated/1.1/index.js';
import { AgentScopeStreamCheck } from './stream/stream-rules.js';

export type { AgentDefinition, RunContext } from './agent/create-agent.js';
export {
  type AgentScopeClientOptions,
  AgentScopeError,
  type AgentScopeRun,
} from './client/process-client.js';
export * from './generated/1.1/index.js';
export type { AgentOutput } from './stream/response-stream.js';
export { STREAM_RULES, type StreamOutcome, type StreamRule } from './stream/stream-rules.js';

/** This module's protocol version. */
export const VERSION = '1.1';

/** Builds the Hono app of an AgentScope 1.1 agent from its `run` function. */
export function createAgent(agent: AgentDefinition<AgentRequest>): Hono {
  return createAgentScopeApp('1.1', agent);
}

/** A stream check for AgentScope 1.1: feed it events, then call `end()`. */
export function createStreamCheck(): AgentScopeStreamCheck {
  return new AgentScopeStreamCheck('1.1');
}

/** A client for an AgentScope 1.1 agent: `process(request)` streams typed events and assembles the response. */
export function createClient(options: AgentScopeClientOptions = {}) {
  return {
    /** Runs the agent on a request: iterate the result for events, await `.response` for the final response. */
    process(
      request: AgentRequest,
      init: { signal?: AbortSignal } = {},
    ): AgentScopeRun<StreamEvent, AgentResponse> {
      return processRequest<StreamEvent, AgentResponse>('1.1', options, request, init.signal);
    },
  };
}
