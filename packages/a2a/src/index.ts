/**
 * A2A (Agent2Agent), latest version (the manifest's `latest`). Versioned entry points: `@agentproto/a2a/<version>`
 * for every version schemas/a2a/protocol.yaml lists.
 */
export * from './generated/latest.js';
