// An agent of the 2025 draft. The runtime keeps runs and their memory, numbers the events, and handles cancel and
// resume; you write what the agent does with a request.
import { createAgentServer } from '@agentproto/agent-protocol-2025';

export const app = createAgentServer({
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
