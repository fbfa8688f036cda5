/** Fixie Agent Protocol, latest (and only) version, 1.0. Versioned entry point: `@agentproto/fixie/1.0`. */
export * from './v1.0.js';
