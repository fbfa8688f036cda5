// The A2A reference agent: a trip planner that exercises tasks, streaming, cancel, subscribe and input-required.
export { createReferenceAgent, type ReferenceOptions, referenceAgent } from './reference-agent.js';
