export { createReferenceServer, getWeather, referenceAgent, summarize } from './reference-agent.js';
