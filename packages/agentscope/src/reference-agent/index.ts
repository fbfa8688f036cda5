// The AgentScope reference agent and the weather tool its client runs.
export { createReferenceAgent, getWeather, referenceRun } from './reference-agent.js';
