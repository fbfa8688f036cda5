/**
 * Agent Protocol (AI Engineer Foundation), latest version (v1): types, validators, the Hono app factory and the
 * typed client. Versioned entry points: `@agentproto/agent-protocol/v1`.
 */
export * from './generated/v1/index.js';
