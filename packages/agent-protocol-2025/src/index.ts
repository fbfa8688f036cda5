/**
 * Agent Protocol, draft 2025 edition, latest version: the generated types, validators, Hono stubs and client, plus
 * the runtime that gives every agent the draft's semantics (runs with memory, event queues, resume and cancel) and
 * typed custom operations with TypeBox. `@agentproto/agent-protocol-2025/<version>` is each version's entry point.
 */
export * from './generated/latest.js';
