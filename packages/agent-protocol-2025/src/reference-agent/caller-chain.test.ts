// The draft's caller chain and request options: what a request carries beside its input reaches the handler, and an
// agent that calls another forwards the callee's events one level deeper (the reference relay, in memory).
import { describe, expect, it } from 'vitest';
import { messageOf } from '../../../../test/support/typed.js';
import { type AgentEvent, createAgentProtocol2025Client, createStreamCheck } from '../index.js';
import type { AgentDefinition, OperationContext } from '../runs/agent-runtime.js';
import { createAgentServer } from '../server/create-server.js';
import { createReferenceServer } from './reference-agent.js';

function clientOf(app: { fetch: (r: Request) => Response | Promise<Response> }) {
  return createAgentProtocol2025Client({ baseUrl: 'http://agent.test', fetch: async (r) => app.fetch(r) });
}

/** Starts a chat on `agent` and reads its events to RequestCompleted (or to `until`). */
async function chat(
  client: ReturnType<typeof clientOf>,
  agent: string,
  body: { input: string } & Record<string, unknown>,
  until?: (e: AgentEvent) => boolean,
): Promise<{ requestId: string; events: AgentEvent[] }> {
  const started = await client.processRequest({
    params: { path: { agent }, query: { wait: true } },
    body: { type: 'ChatRequest', ...body },
  });
  const requestId = started.data?.request_id ?? '';
  const r = await client.getEvents({
    params: { path: { agent }, query: { request_id: requestId, stream: true } },
  });
  const events: AgentEvent[] = [];
  for await (const e of r.items ?? []) {
    events.push(e);
    if (until?.(e)) break;
  }
  return { requestId, events };
}

describe('draft 2025 > request options reach the handler', () => {
  it('request_metadata, run_context and logging_level > on the context, typed; {} when absent', async () => {
    const seen: Array<Pick<OperationContext, 'metadata' | 'runContext' | 'loggingLevel'>> = [];
    const agent: AgentDefinition = {
      name: 'probe',
      purpose: 'Records what it is given.',
      chat: (input, { metadata, runContext, loggingLevel }) => {
        seen.push({ metadata, runContext, ...(loggingLevel === undefined ? {} : { loggingLevel }) });
        return input;
      },
    };
    const client = clientOf(createAgentServer({ agents: [agent] }));
    await chat(client, 'probe', {
      input: 'hi',
      request_metadata: { user_id: 'u1', current_time: '2025-02-01T10:00:00Z' },
      run_context: { user_context: { name: 'Ada' } },
      logging_level: 'debug',
    });
    await chat(client, 'probe', { input: 'again' });
    expect(seen).toEqual([
      {
        metadata: { user_id: 'u1', current_time: '2025-02-01T10:00:00Z' },
        runContext: { user_context: { name: 'Ada' } },
        loggingLevel: 'debug',
      },
      { metadata: {}, runContext: {} },
    ]);
  });
});

describe('draft 2025 > caller chain', () => {
  it("relay > the callee's tool call and text arrive with depth 1, the relay's own events with depth 0", async () => {
    const client = clientOf(createReferenceServer());
    const { events } = await chat(client, 'relay', { input: 'What is the weather in Paris?' });
    // The stream as a whole keeps the draft's rules (one RequestStarted first, one RequestCompleted last, ids rising).
    const check = createStreamCheck();
    expect([...events.flatMap((e, i) => check.push(e, { index: i + 1 })), ...check.end()]).toEqual([]);
    expect(events.map((e) => [e.type, e.depth, e.agent])).toEqual([
      ['RequestStarted', 0, 'relay'],
      ['ToolCall', 1, 'assistant'],
      ['ToolResult', 1, 'assistant'],
      ['CompletionCall', 1, 'assistant'],
      ['CompletionResult', 1, 'assistant'],
      ['TextOutput', 1, 'assistant'],
      ['RequestCompleted', 0, 'relay'],
    ]);
    expect(events.at(-1)).toMatchObject({
      finish_reason: 'success',
      result: 'The weather in Paris: 18 °C, clear.',
    });
  });

  it("relay > the callee's question is asked in the relay's request, and the answer travels on", async () => {
    const client = clientOf(createReferenceServer());
    const { requestId, events } = await chat(
      client,
      'relay',
      { input: 'Please buy me a set of cutting boards' },
      (e) => e.type === 'WaitForInput',
    );
    expect(events.at(-1)).toMatchObject({ type: 'WaitForInput', depth: 0, agent: 'relay' });
    await client.processRequest({
      params: { path: { agent: 'relay' }, query: {} },
      body: { type: 'ResumeWithInput', request_id: requestId, request_keys: { material: 'wooden' } },
    });
    const r = await client.getEvents({
      params: { path: { agent: 'relay' }, query: { request_id: requestId, stream: true } },
    });
    const rest: AgentEvent[] = [];
    for await (const e of r.items ?? []) rest.push(e);
    expect(rest.at(-1)).toMatchObject({
      type: 'RequestCompleted',
      finish_reason: 'success',
      result: 'Ordered a set of cutting boards (wooden).',
    });
  });

  it("forward > the callee's own lifecycle events are refused", async () => {
    let refusal = '';
    const agent: AgentDefinition = {
      name: 'forwarder',
      purpose: 'Tries to forward what is not its to forward.',
      chat: async (input, context) => {
        await context.forward({
          id: 9,
          run_id: 9,
          agent: 'other',
          type: 'TextOutput',
          role: 'assistant',
          depth: 2,
          content: 'deep',
        });
        try {
          await context.forward({
            id: 10,
            run_id: 9,
            agent: 'other',
            type: 'RequestCompleted',
            role: 'system',
            depth: 0,
            finish_reason: 'success',
          });
        } catch (error) {
          refusal = messageOf(error);
        }
        return input;
      },
    };
    const { events } = await chat(clientOf(createAgentServer({ agents: [agent] })), 'forwarder', {
      input: 'x',
    });
    expect(refusal).toMatch(/RequestCompleted belongs to the callee's own request/);
    expect(events.map((e) => [e.type, e.depth, e.agent])).toEqual([
      ['RequestStarted', 0, 'forwarder'],
      ['TextOutput', 3, 'other'],
      ['RequestCompleted', 0, 'forwarder'],
    ]);
  });
});
