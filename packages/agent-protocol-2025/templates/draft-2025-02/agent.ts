// An agent of the 2025 draft. The runtime keeps runs and their memory, numbers the events, and handles cancel and
// resume; you write what the agent does with a request. Runs live in the AgentStore the app is made with: src/server.ts
// opens the one AGENT_STORE names (memory unless the project was
// made with `--store`).
import { createAgentServer } from '@agentproto/agent-protocol-2025/draft-2025-02';
import { type AgentStore, MemoryStore } from '@agentproto/runtime';

/** The agent server, its runs and events in `store`. */
export function createApp(store: AgentStore) {
  return createAgentServer({
    store,
    agents: [
      {
        // TODO: your agent's name, as describe lists it and requests address it.
        name: 'assistant',
        purpose: 'TODO: say what this agent is for.',
        async chat(input, context) {
          // TODO: your agent's logic. context.run.memory holds earlier turns; context.text() streams output;
          // context.waitForInput({ key: 'question' }) asks the caller and waits for the answer.
          const answer = `You said: ${input}`;
          await context.text(answer);
          return answer;
        },
      },
    ],
  });
}

/** The agent with its runs in memory: what the tests use. */
export const app = createApp(new MemoryStore());
