import { StreamReadError } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { illTyped, messageOf, prop, stringAt } from '../../../../test/support/typed.js';
import * as v01 from '../generated/0.1/entry.js';
import * as v11 from '../generated/1.1/entry.js';
import { createReferenceAgent, getWeather } from '../reference-agent/index.js';
import { AgentScopeError, retryWait } from './process-client.js';

// A request both versions take, so either version's client can send it (its `process`, on the union of the two
// clients, wants both types at once).
const ask = (text: string, extra: Record<string, unknown> = {}) =>
  // sound: a user's text message is a valid request in 0.1 and 1.1 alike, and the only extra the tests give, `tools`,
  // is a list of function tools in both.
  ({
    input: [{ role: 'user', type: 'message', content: [{ type: 'text', text }] }],
    ...extra,
  }) as v01.AgentRequest & v11.AgentRequest;

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** A fetch that answers every request with the given SSE frames (or raw text), as a misbehaving server would. */
function serverSending(frames: Array<Record<string, unknown> | string>, options: { stall?: boolean } = {}) {
  return async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const f of frames)
          controller.enqueue(encoder.encode(typeof f === 'string' ? f : `data: ${JSON.stringify(f)}\n\n`));
        if (!options.stall) controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

const created = { sequence_number: 0, object: 'response', status: 'created', id: 'r1', created_at: 1 };

describe.each([
  ['1.1', v11.createClient, { functionOutputRole: 'tool' }],
  ['0.1', v01.createClient, { functionOutputRole: 'assistant' }],
] as const)('agentscope %s > client', (version, createClient, { functionOutputRole }) => {
  const client = () => {
    const app = createReferenceAgent(version);
    return createClient({ fetch: (r) => app.fetch(r) });
  };

  it('process > yields typed events and assembles the final response', async () => {
    const run = client().process(ask('hi there'));
    const kinds: string[] = [];
    for await (const event of run) kinds.push(event.object);
    expect(kinds[0]).toBe('response');
    expect(kinds).toContain('content');
    const response = await run.response;
    expect(response.status).toBe('completed');
    expect(response.output?.[0]?.content?.[0]).toMatchObject({ type: 'text', text: 'You said: hi there' });
  });

  it('process > awaiting the response alone reads the stream to its end', async () => {
    const response = await client().process(ask('just the answer')).response;
    expect(response.output).toHaveLength(1);
  });

  it('tool round trip > the agent calls a tool, the client runs it, the agent answers with its output', async () => {
    const c = client();
    const first = await c.process(ask('What is the weather in Paris?', { tools: [WEATHER_TOOL] })).response;
    const call = first.output?.find((m) => m.type === 'function_call');
    const data = prop(call?.content?.[0], 'data');
    expect(prop(data, 'name')).toBe('get_weather');
    const args: unknown = JSON.parse(stringAt(data, 'arguments'));
    expect(args).toEqual({ city: 'Paris' });
    const output = {
      call_id: stringAt(data, 'call_id'),
      output: getWeather({ city: stringAt(args, 'city') }),
    };
    // sound: the call and its output are what this version's agent asked for and accepts (the output's role is the
    // version's own), which neither version's request type can say for the union of both clients.
    const second = await c.process({
      input: [
        ...ask('What is the weather in Paris?').input,
        { type: 'function_call', role: 'assistant', content: [{ type: 'data', data: data ?? {} }] },
        {
          type: 'function_call_output',
          role: functionOutputRole,
          content: [{ type: 'data', data: output }],
        },
      ],
    } as never).response;
    expect(second.output?.[0]?.content?.[0]).toMatchObject({ text: 'The tool says: Paris: 18 °C, clear' });
  });

  it('refusal > an invalid request rejects with the HTTP status and the problem', async () => {
    const run = client().process(illTyped({ input: 'hi' }));
    const error = await run.response.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentScopeError);
    expect(error).toMatchObject({
      status: 422,
      details: { errors: [{ pointer: '/input', message: 'must be array' }] },
    });
  });

  it('failed response > rejects with the agent error', async () => {
    await expect(client().process(ask('fail')).response).rejects.toThrow(
      /ended failed: AGENT_ERROR: asked to fail/,
    );
  });
});

describe('agentscope > client against broken servers', () => {
  const cases: Array<[string, { frames: Array<Record<string, unknown> | string>; want: RegExp }]> = [
    [
      'a stream that breaks a rule',
      { frames: [{ ...created, status: 'in_progress' }], want: /event 1: .*\[first-created\]/ },
    ],
    [
      'a stream that ends before its response does',
      { frames: [created], want: /ended without a terminal response/ },
    ],
    [
      'an error frame',
      { frames: [{ error: 'Runner is not ready' }], want: /refused the request: Runner is not ready/ },
    ],
    [
      'an event that breaks its schema',
      {
        frames: [{ ...created, created_at: 'now' }],
        want: /event 1: \/created_at: must be integer \[schema\]/,
      },
    ],
  ];
  it.each(cases)('reports %s', async (_, { frames, want }) => {
    const client = v11.createClient({ fetch: serverSending(frames) });
    await expect(client.process(ask('x')).response).rejects.toThrow(want);
  });

  it('reports a frame that is not JSON', async () => {
    const client = v11.createClient({ fetch: serverSending([created, 'data: {"object": \n\n']) });
    const error = await client.process(ask('x')).response.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamReadError);
    expect(messageOf(error)).toMatch(/item 2 \(line 3\) is not JSON/);
  });

  it('gives up on a silent stream instead of hanging', async () => {
    const client = v11.createClient({ fetch: serverSending([created], { stall: true }), idleTimeoutMs: 100 });
    await expect(client.process(ask('x')).response).rejects.toThrow(/sent nothing for 100 ms/);
  });

  it('assembles the output from the streamed messages when the terminal response leaves it empty', async () => {
    const message = {
      sequence_number: 2,
      object: 'message',
      status: 'completed',
      id: 'm1',
      type: 'message',
      role: 'assistant',
    };
    const frames = [
      created,
      {
        sequence_number: 1,
        object: 'message',
        status: 'in_progress',
        id: 'm1',
        type: 'message',
        role: 'assistant',
      },
      message,
      { ...created, sequence_number: 3, status: 'completed', output: [] },
    ];
    const response = await v11.createClient({ fetch: serverSending(frames) }).process(ask('x')).response;
    expect(response.output).toEqual([message]);
  });
});

describe('agentscope > client retries', () => {
  /** A fetch that fails as told for the first answers, then passes requests to the reference agent; counts calls. */
  function flaky(failures: Array<number | 'network'>, retryAfter?: string) {
    const app = createReferenceAgent('1.1');
    const calls = { n: 0 };
    const fetch = async (r: Request) => {
      const failure = failures[calls.n++];
      if (failure === 'network') throw new TypeError('fetch failed');
      if (failure !== undefined)
        return new Response(JSON.stringify({ title: 'busy', status: failure }), {
          status: failure,
          headers: {
            'content-type': 'application/problem+json',
            ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
          },
        });
      return app.fetch(r);
    };
    return { fetch, calls };
  }
  const cases: Array<
    [
      string,
      { failures: Array<number | 'network'>; retries?: number; calls: number; want: 'completed' | RegExp },
    ]
  > = [
    [
      '503 twice, then an answer > completed after 3 calls',
      { failures: [503, 503], calls: 3, want: 'completed' },
    ],
    ['429, 502, 504 > each is worth a retry', { failures: [429, 502], calls: 3, want: 'completed' }],
    ['a failed connection > retried', { failures: ['network'], calls: 2, want: 'completed' }],
    [
      '503 three times, 2 retries > the last refusal',
      { failures: [503, 503, 503], calls: 3, want: /HTTP 503/ },
    ],
    ['retries: 0 > one call', { failures: [503], retries: 0, calls: 1, want: /HTTP 503/ }],
    ['422 > never retried', { failures: [422], calls: 1, want: /HTTP 422/ }],
    ['500 > never retried (the agent may have acted)', { failures: [500], calls: 1, want: /HTTP 500/ }],
  ];
  it.each(cases)('%s', async (_name, { failures, retries, calls, want }) => {
    const server = flaky(failures);
    const client = v11.createClient({
      fetch: server.fetch,
      retryDelayMs: 0,
      ...(retries === undefined ? {} : { retries }),
    });
    const response = client.process(ask('hi there')).response;
    if (want === 'completed') expect((await response).status).toBe('completed');
    else await expect(response).rejects.toThrow(want);
    expect(server.calls.n).toBe(calls);
  });

  it('retryWait > backoff doubles, Retry-After (seconds or a date) takes its place, 10 s at most', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect([0, 1, 2].map((a) => retryWait(a, 250, null, now))).toEqual([250, 500, 1000]);
    expect(retryWait(0, 250, '3', now)).toBe(3000);
    expect(retryWait(0, 250, 'Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2000);
    expect(retryWait(0, 250, '3600', now)).toBe(10_000);
    expect(retryWait(9, 250, null, now)).toBe(10_000);
    expect(retryWait(0, 250, 'soon', now)).toBe(250);
  });

  it('an aborted run stops waiting and retrying', async () => {
    const server = flaky([503, 503, 503], '10');
    const client = v11.createClient({ fetch: server.fetch });
    const abort = new AbortController();
    const response = client.process(ask('hi'), { signal: abort.signal }).response;
    setTimeout(() => abort.abort(), 20);
    await expect(response).rejects.toThrow();
    expect(server.calls.n).toBeLessThanOrEqual(2);
  });
});
