// An AgentScope 0.1 agent: yield output, and the runtime streams the protocol's events (response, messages,
// text deltas, completion) as server-sent events. `signal` aborts when the client disconnects.
import { type AgentOutput, createAgent } from '@agentproto/agentscope/0.1';

export const app = createAgent({
  // The return type makes a wrong yield an error on its own line, not on `run`.
  async *run(request, { signal }): AsyncGenerator<AgentOutput> {
    // TODO: your agent's logic. request.input holds the conversation; yield text deltas, data, function calls and
    // their outputs, or an error.
    const last = request.input.at(-1)?.content?.find((part) => part.type === 'text');
    const text = last && 'text' in last ? String(last.text ?? '') : '';
    for (const word of `You said: ${text}`.split(/(?<= )/)) {
      if (signal.aborted) return;
      yield { type: 'text', delta: word };
    }
  },
});
