// An A2A agent. Its card says who it is; `run` answers each message with events: states, artifacts, or a direct
// reply. The package keeps tasks, streams them, and handles get, list, cancel and subscribe over JSON-RPC and
// HTTP+JSON. Tasks live in the AgentStore the app is made with: src/server.ts opens the one AGENT_STORE names
// (in memory unless it names another).
import { type A2aAgent, type AgentEvent, createA2aServer } from '@agentproto/a2a';
import { type AgentStore, MemoryStore } from '@agentproto/runtime';

const agent: A2aAgent = {
  card: {
    // TODO: who your agent is and what it can do.
    name: 'my-agent',
    description: 'TODO: say what this agent is for.',
    version: '0.1.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Says back what it is told.', tags: ['example'] }],
  },
  // The return type makes a wrong yield an error on its own line, not on `run`.
  async *run({ message, signal }): AsyncGenerator<AgentEvent> {
    const text = message.parts.map((p) => ('text' in p ? p.text : '')).join(' ');
    // TODO: your agent's logic. Yield { state: 'TASK_STATE_INPUT_REQUIRED', text: 'question?' } to ask the client;
    // its answer arrives as the next message on the same task. Stop when `signal` aborts (the task was canceled).
    yield { state: 'TASK_STATE_WORKING', text: 'Working on it…' };
    if (signal.aborted) return;
    yield { artifact: { artifactId: 'answer', parts: [{ text: `You said: ${text}` }] } };
  },
};

/** The agent's server (JSON-RPC at /jsonrpc, HTTP+JSON at /), its tasks in `store`. */
export function createApp(store: AgentStore) {
  return createA2aServer(agent, { store }).app;
}

/** The agent with its tasks in memory: what the tests use. */
export const app = createApp(new MemoryStore());
