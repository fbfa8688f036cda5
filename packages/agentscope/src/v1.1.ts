/**
 * AgentScope Agent API 1.1: the generated types, validators, Hono stubs and client, plus the stream rules, the
 * streaming agent factory and the process client, bound to this version.
 */
import type { AgentRequest, AgentResponse, StreamEvent } from './generated/1.1/index.js';
import { versionApi } from './version-api.js';

export type { AgentDefinition, RunContext } from './agent/create-agent.js';
export {
  type AgentScopeClientOptions,
  AgentScopeError,
  type AgentScopeRun,
} from './client/process-client.js';
export * from './generated/1.1/index.js';
export {
  SessionHistory,
  type SessionHistoryOptions,
  type SessionMessage,
} from './session/session-history.js';
export type { AgentOutput } from './stream/response-stream.js';
export { STREAM_RULES, type StreamOutcome, type StreamRule } from './stream/stream-rules.js';
export type { AgentScopeClient } from './version-api.js';

/** This module's protocol version. */
export const VERSION = '1.1';

/** The agent factory, stream check and client of AgentScope 1.1. */
export const { createAgent, createStreamCheck, createClient } = versionApi<
  AgentRequest,
  StreamEvent,
  AgentResponse
>('1.1');
