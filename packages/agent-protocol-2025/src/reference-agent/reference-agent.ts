// The 2025 draft's reference agent: chat that answers weather questions with a tool call, asks for input when it
// lacks a city, and a typed custom operation, all on createAgentServer.
import { Type } from '@sinclair/typebox';
import type { Hono } from 'hono';
import type { AgentProtocol2025Client } from '../generated/draft-2025-02/index.js';
import { GENERATED } from '../generated/modules.js';
import { LATEST, type Version } from '../generated/versions.js';
import { type AgentDefinition, defineOperation } from '../runs/agent-runtime.js';
import { type AgentServerOptions, createAgentServer } from '../server/create-server.js';

/** The tool the reference agent calls. */
export function getWeather(city: string): string {
  return `${city}: 18 °C, clear`;
}

/**
 * The city of "… weather in <city>?", or undefined. Found by position, not by one regex over the whole text: an
 * unanchored lazy pattern backtracks quadratically on a long text that repeats "weather in" (a 352 KB text froze the
 * event loop for 32 s).
 */
export function weatherCity(text: string): string | undefined {
  const at = text.toLowerCase().lastIndexOf('weather in ');
  if (at === -1) return undefined;
  const city = text.slice(at + 'weather in '.length).replace(/\?$/, '');
  return /^[A-Za-z .'-]+$/.test(city) ? city : undefined;
}

/** A text without the run of `.`, `?` and `!` at its end, trimmed from the end in one pass. */
function trimEndPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && '.?!'.includes(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

/** A custom operation, typed with TypeBox: the first `max_words` words of a text. */
export const summarize = defineOperation({
  name: 'summarize',
  description: 'Shorten a text to its first words.',
  input: Type.Object(
    { text: Type.String(), max_words: Type.Integer({ minimum: 1, maximum: 100 }) },
    { additionalProperties: false },
  ),
  output: Type.Object({ summary: Type.String(), truncated: Type.Boolean() }),
  handler: async ({ text, max_words }, context) => {
    const words = text.split(/\s+/).filter(Boolean);
    await context.text(`summarizing ${words.length} words`);
    return { summary: words.slice(0, max_words).join(' '), truncated: words.length > max_words };
  },
});

/**
 * The reference chat agent. It remembers the run's earlier turns, calls a weather tool, asks for input before it
 * orders anything (the human-in-the-loop flow), writes a report artifact, and counts slowly enough to be canceled.
 */
export const referenceAgent: AgentDefinition = {
  name: 'assistant',
  purpose:
    'A small assistant that checks the weather, orders things once you choose, and remembers the conversation.',
  tools: ['get_weather'],
  operations: [summarize],
  async chat(input, context) {
    const lower = input.toLowerCase();
    const city = weatherCity(input);
    if (city) {
      await context.toolCall('get_weather', { city });
      const result = getWeather(city);
      await context.toolResult('get_weather', result);
      return context
        .completion(async () => `The weather in ${result}.`)
        .then(async (answer) => {
          await context.text(answer);
          return answer;
        });
    }
    if (lower.includes('buy') || lower.includes('order')) {
      const { material } = await context.waitForInput({ material: 'Wooden or plastic?' });
      const item = trimEndPunctuation(input.replace(/^.*?(?:buy|order)(?: me)?\s+/i, ''));
      const answer = `Ordered ${item} (${String(material)}).`;
      await context.text(answer);
      return answer;
    }
    if (lower.startsWith('count')) {
      for (let i = 1; i <= 1000 && !context.signal.aborted; i++) {
        await context.text(String(i));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return 'done counting';
    }
    if (lower.includes('report')) {
      await context.artifact({
        name: 'report.pdf',
        artifact_id: 'art_1',
        url: '/files/report.pdf',
        mime_type: 'application/pdf',
      });
      return 'The report is ready.';
    }
    if (lower.includes('what did i say')) {
      const earlier = context.run.memory
        .filter((m) => m.role === 'user')
        .slice(0, -1)
        .at(-1);
      const answer = earlier ? `You said: ${earlier.content}` : 'This is the first thing you said.';
      await context.text(answer);
      return answer;
    }
    if (lower === 'fail') throw new Error('asked to fail');
    const answer = `You said: ${input}`;
    await context.text(answer);
    return answer;
  },
};

/**
 * An agent that asks another over the protocol and passes on what it hears: the draft's caller chain. The callee's
 * text, tool calls and artifacts reach the relay's caller with `depth` 1; a question the callee asks is asked in the
 * relay's own request and its answer sent on; canceling the relay's request cancels the callee's.
 */
export function relayAgent(callee: () => AgentProtocol2025Client, agent = 'assistant'): AgentDefinition {
  return {
    name: 'relay',
    purpose: `Passes what it is told to ${agent} and relays the answer.`,
    async chat(input, context) {
      const client = callee();
      const path = { agent };
      const started = await client.processRequest({
        params: { path, query: { wait: true } },
        body: { type: 'ChatRequest', input, request_metadata: { ...context.metadata, via: 'relay' } },
      });
      const requestId = started.data?.request_id;
      if (!requestId) throw new Error(`${agent} did not start the request (${started.response.status})`);
      const cancel = () =>
        void client
          .processRequest({
            params: { path, query: {} },
            body: { type: 'CancelRequest', request_id: requestId },
          })
          .catch(() => {});
      context.signal.addEventListener('abort', cancel, { once: true });
      try {
        const events = await client.getEvents({
          params: { path, query: { request_id: requestId, stream: true } },
        });
        if (!events.items) throw new Error(`${agent} did not stream its events (${events.response.status})`);
        for await (const event of events.items) {
          if (event.type === 'RequestStarted') continue;
          if (event.type === 'RequestCompleted') {
            if (event.finish_reason !== 'success') throw new Error(`${agent} ended ${event.finish_reason}`);
            return String(event.result ?? '');
          }
          if (event.type === 'WaitForInput') {
            const values = await context.waitForInput(event.request_keys);
            await client.processRequest({
              params: { path, query: {} },
              body: { type: 'ResumeWithInput', request_id: requestId, request_keys: values },
            });
            continue;
          }
          await context.forward(event);
        }
        throw new Error(`${agent}'s stream ended before its RequestCompleted`);
      } finally {
        context.signal.removeEventListener('abort', cancel);
      }
    },
  };
}

/**
 * The reference server: the assistant, an echo agent so `/` lists more than one, and a relay that asks the assistant
 * through this same server, as another agent on the network would. It speaks `version` (default: the latest),
 * checking what it answers against that version's schemas.
 */
export function createReferenceServer(
  options: Pick<AgentServerOptions, 'store' | 'instance'> = {},
  version: Version = LATEST,
): Hono {
  const echo: AgentDefinition = {
    name: 'echo',
    purpose: 'Repeats what it is told.',
    chat: async (input, context) => {
      await context.text(input);
      return input;
    },
  };
  // The relay's client calls the server in memory; the server exists by the time any chat runs.
  const callee = () =>
    GENERATED[version].createAgentProtocol2025Client({
      baseUrl: 'http://reference.local',
      fetch: async (r) => server.fetch(r),
    });
  const server = createAgentServer(
    { agents: [referenceAgent, echo, relayAgent(callee)], ...options },
    version,
  );
  return server;
}
