// The reference agent of the 2025 draft: a chat agent with a weather tool and a custom `summarize` operation.
export {
  createReferenceServer,
  getWeather,
  referenceAgent,
  relayAgent,
  summarize,
} from './reference-agent.js';
