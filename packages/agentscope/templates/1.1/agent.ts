// An AgentScope 1.1 agent: yield output, and the runtime streams the protocol's events (response, messages,
// text deltas, completion) as server-sent events. `signal` aborts when the client disconnects.
import { createAgent } from '@agentproto/agentscope/1.1';

export const app = createAgent({
  async *run(request, { signal }) {
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
