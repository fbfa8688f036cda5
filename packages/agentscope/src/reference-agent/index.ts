export { createReferenceAgent, getWeather, referenceRun } from './reference-agent.js';
