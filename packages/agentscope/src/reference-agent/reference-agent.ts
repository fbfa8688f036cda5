// The AgentScope reference agent (cookbook protocol.md): it answers weather questions with a function call and its
// output, reports an error when asked to fail, and otherwise echoes the input one word per delta.
import type { AgentStore } from '@agentproto/runtime';
import type { Hono } from 'hono';
import { createAgentScopeApp, type RunContext } from '../agent/create-agent.js';
import { isObjectLike } from '../is-object-like.js';
import { SessionHistory } from '../session/session-history.js';
import type { AgentOutput } from '../stream/response-stream.js';
import type { AgentScopeVersion } from '../version-traits.js';

/** The parts of a request the reference agent reads; every version's AgentRequest has them. */
interface RequestView {
  input: Array<{ type?: string; role?: string | null; content?: Array<Record<string, unknown>> | null }>;
  tools?: Array<Record<string, unknown>> | null;
}

/** The text of a message: its text parts, joined. */
function textOf(message: RequestView['input'][number] | undefined): string {
  return (message?.content ?? [])
    .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('');
}

/**
 * The city a text asks the weather of ("… weather in Paris?"). The text is cut at the last "weather in" first: one
 * unanchored lazy regex over a long text that repeats the phrase backtracks quadratically.
 */
function weatherCity(text: string): string | undefined {
  const lower = text.toLowerCase();
  const start = lower.lastIndexOf('weather in ');
  const city = start === -1 ? '' : text.slice(start + 11).replace(/\?$/, '');
  return /^[A-Za-z .'-]+$/.test(city) ? city : undefined;
}

function offersTool(request: RequestView, name: string): boolean {
  return (request.tools ?? []).some((tool) => isObjectLike(tool.function) && tool.function.name === name);
}

/**
 * The reference agent's behaviour, the same in every version:
 * - asked about the weather in a city while offering a `get_weather` tool, it calls the tool and ends its turn;
 * - given the tool's output (a `function_call_output` message last), it answers with it;
 * - asked "what did I say", it answers with the session's previous user message;
 * - asked to "fail", it reports an error; anything else it echoes back, one word per delta.
 * Between deltas it checks the abort signal, so a client that disconnects stops it.
 */
export async function* referenceRun(request: RequestView, context: RunContext): AsyncGenerator<AgentOutput> {
  const last = request.input.at(-1);
  if (last?.type === 'function_call_output') {
    const data = last.content?.find((part) => part.type === 'data')?.data;
    const output = isObjectLike(data) ? data.output : undefined;
    yield { type: 'text', delta: `The tool says: ${String(output ?? 'nothing')}` };
    return;
  }
  const text = textOf(last);
  const city = weatherCity(text);
  if (city && offersTool(request, 'get_weather')) {
    yield { type: 'function_call', name: 'get_weather', arguments: { city } };
    return;
  }
  // Session continuity: the session's earlier turns are in context.history (when the request names a session_id).
  if (text.toLowerCase().includes('what did i say')) {
    // sound: a session keeps the input messages of requests that passed the version's AgentRequest schema, of which
    // RequestView is a part, and the agent's completed messages, which have the same shape.
    const earlier = [...context.history].reverse().find((m) => m.role === 'user') as
      | RequestView['input'][number]
      | undefined;
    yield {
      type: 'text',
      delta: earlier ? `Before, you said: ${textOf(earlier)}` : 'This is the first thing you said.',
    };
    return;
  }
  if (text.trim().toLowerCase() === 'fail') {
    yield { type: 'error', code: 'AGENT_ERROR', message: 'asked to fail' };
    return;
  }
  const words = `You said: ${text}`.split(/(?<= )/);
  for (const word of words) {
    if (context.signal.aborted) return;
    yield { type: 'text', delta: word };
    // Let the event loop breathe between deltas, as a model streaming tokens would.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The tool the reference client runs for the agent's `get_weather` calls. */
export function getWeather(args: { city?: string }): string {
  return `${args.city ?? 'somewhere'}: 18 °C, clear`;
}

/**
 * The reference AgentScope agent for a version, as a Hono app. Sessions are kept in `store` (a bounded memory store
 * by default; `openStore` gives a SQLite or Redis one).
 */
export function createReferenceAgent(version: AgentScopeVersion, store?: AgentStore): Hono {
  const agent = {
    service: 'agentproto reference agent',
    run: referenceRun,
    history: new SessionHistory(store),
  };
  return createAgentScopeApp<RequestView & { session_id?: string | null }>(version, agent);
}
