/** A2A (Agent2Agent), latest version, 1.0. Versioned entry point: `@agentproto/a2a/1.0`. */
export * from './v1.0.js';
