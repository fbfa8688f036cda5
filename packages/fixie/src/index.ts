/** Fixie Agent Protocol, latest version: its entry point (`@agentproto/fixie/<version>` for each version). */
export * from './generated/latest.js';
