/**
 * AgentScope Agent API, latest version (the manifest's `latest`). Versioned entry points:
 * `@agentproto/agentscope/<version>` for every version schemas/agentscope/protocol.yaml lists.
 */
export * from './generated/latest.js';
