/**
 * AgentScope Agent API, latest version (1.1). Versioned entry points: `@agentproto/agentscope/1.1` and
 * `@agentproto/agentscope/0.1`.
 */
export * from './v1.1.js';
