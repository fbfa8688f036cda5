// The A2A reference agent: a small trip planner whose turns exercise every part of the protocol. A plain message
// starts a task that streams an itinerary in chunks and completes; "hello" gets a direct reply without a task; a
// message without a destination asks for one (input-required) and finishes on the answer; "slow" keeps working until
// canceled; "fail" and "reject" end the task in those states. A message whose id starts with one of the official
// TCK's scenario prefixes (`tck-complete-task-…`) gets that scenario (tck-scenarios.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentStore } from '@agentproto/runtime';
import type { A2aAgent, AgentCardInput, AgentEvent, AgentTurn } from '../agent/agent.js';
import { type A2aServer, type A2aServerOptions, createA2aServer } from '../server/create-a2a-server.js';
import { playScenario, tckScenario } from './tck-scenarios.js';

/** Options of the reference agent. */
export interface ReferenceOptions extends Omit<A2aServerOptions, 'store'> {
  store?: AgentStore;
  /** Pause between streamed chunks, in milliseconds (default 5). */
  chunkDelayMs?: number;
}

/** The reference agent's logic and card. */
export function referenceAgent(chunkDelayMs = 5): A2aAgent {
  return {
    card: {
      name: 'agentproto trip planner',
      description:
        'A reference A2A agent: plans a trip to a city, asks when it does not know where, streams the plan.',
      version: '1.0.0',
      provider: { organization: 'agentproto', url: 'https://github.com/agentproto' },
      // Push notifications go only to public addresses unless `push.allowHosts` opens more (--push-allow).
      capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false },
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain'],
      skills: [
        {
          id: 'plan-trip',
          name: 'Plan a trip',
          description: 'Writes a short day-by-day plan for a city.',
          tags: ['travel', 'planning'],
          examples: ['Plan a trip to Lisbon', 'Plan a trip'],
        },
      ],
    },
    run: (turn) => planTrip(turn, chunkDelayMs),
  };
}

/**
 * What an authenticated client sees beyond the public card (GetExtendedAgentCard, §3.1.11): the turns the agent keeps
 * for testing clients, as a skill of their own.
 */
export function referenceExtendedCard(card: AgentCardInput): AgentCardInput {
  return {
    ...card,
    skills: [
      ...card.skills,
      {
        id: 'test-turns',
        name: 'Test turns',
        description:
          'Turns for testing a client: "hello" replies without a task, "slow" works until canceled, "fail" fails the task, "reject" rejects it.',
        tags: ['testing'],
        examples: ['hello', 'slow', 'fail', 'reject'],
      },
    ],
  };
}

/**
 * Builds the reference agent's server (both bindings). With `extendedCardToken` its extended card
 * (referenceExtendedCard) is served to a request carrying that bearer token.
 */
export function createReferenceAgent(options: ReferenceOptions = {}): A2aServer {
  const { chunkDelayMs, ...server } = options;
  const agent = referenceAgent(chunkDelayMs);
  const extended =
    server.extendedCardToken !== undefined && !server.extendedCard
      ? { extendedCard: referenceExtendedCard(agent.card) }
      : {};
  return createA2aServer(agent, { ...server, ...extended });
}

async function* planTrip({ message, task, signal }: AgentTurn, delay: number): AsyncGenerator<AgentEvent> {
  // A message id with one of the official TCK's scenario prefixes asks for that scenario instead.
  const scenario = tckScenario(message.messageId);
  if (scenario) {
    yield* playScenario(scenario, signal);
    return;
  }
  const text = message.parts
    .map((p) => ('text' in p && typeof p.text === 'string' ? p.text : ''))
    .join(' ')
    .trim();
  const word = text.toLowerCase();
  if (word === 'hello' && (task.history?.length ?? 0) <= 1) {
    yield { reply: 'Hello! Tell me a city and I will plan a trip there.' };
    return;
  }
  if (word === 'fail') throw new Error('asked to fail');
  if (word === 'reject') {
    yield { state: 'TASK_STATE_REJECTED', text: 'I only plan trips.' };
    return;
  }
  if (word === 'slow') {
    // Works until canceled: one chunk every 50 ms, at most 200.
    for (let i = 1; i <= 200 && !signal.aborted; i++) {
      yield { artifact: { artifactId: 'log', parts: [{ text: `step ${i}\n` }] }, append: i > 1 };
      await sleep(50, undefined, { signal }).catch(() => {});
    }
    return;
  }
  // The city follows "to"; on a task that asked for one, the whole answer is the city.
  const answering = (task.history?.length ?? 0) > 1;
  const city =
    /\bto\s+(\p{Lu}[\p{L}' -]{0,40})/u.exec(text)?.[1]?.trim() ??
    (answering && isCity(text) ? text : undefined);
  if (!city) {
    yield { state: 'TASK_STATE_INPUT_REQUIRED', text: 'Which city would you like to visit?' };
    return;
  }
  yield { state: 'TASK_STATE_WORKING', text: `Planning a trip to ${city}…` };
  const days = [
    `Day 1: walk the old town of ${city}.`,
    `Day 2: a museum and the market.`,
    `Day 3: a day trip out of ${city}.`,
  ];
  for (const [i, day] of days.entries()) {
    if (signal.aborted) return;
    await sleep(delay, undefined, { signal }).catch(() => {});
    yield {
      artifact: { artifactId: 'itinerary', name: `Trip to ${city}`, parts: [{ text: `${day}\n` }] },
      append: i > 0,
      lastChunk: i === days.length - 1,
    };
  }
  yield { state: 'TASK_STATE_COMPLETED', text: `Your trip to ${city} is planned.` };
}

/** A reply that is just a name (the answer to "Which city?"). */
function isCity(text: string): boolean {
  return /^\p{L}[\p{L}' -]{0,40}$/u.test(text);
}
