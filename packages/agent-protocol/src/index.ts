/**
 * Agent Protocol (AI Engineer Foundation), latest version: types, validators, the Hono app factory and the typed
 * client. `@agentproto/agent-protocol/<version>` is each version's entry point.
 */
export * from './generated/latest.js';
